import { and, eq } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import { IMAGE_MESSAGES } from '../../../shared/event-images.ts';
import { GST_MESSAGES, ticketSaleGstProblemMessage } from '../../../shared/gst-schemas.ts';
import { venueStateMissing } from '../../../shared/gst-states.ts';
import type { EventRole } from '../../../shared/organiser-schemas.ts';
import { saleWindowState } from '../../../shared/sale-window.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { Clock } from '../../deps.ts';
import { conflict } from '../../errors.ts';
import { refreshEventListingSteps } from '../catalog/refresh-event-listing.ts';
import { ticketSaleGstProblemSteps } from '../checkout/checkout-taxes.ts';
import { ownerInvoicingStatusSteps } from '../invoices/invoicing-status.ts';
import { accountRoleSteps } from '../roles/get-account-role.ts';
import { requireEventRole } from '../team/require-event-permission.ts';
import { claimVersionSteps } from './event-version.ts';

export type PublishResult = { published: true; version: number } | { published: false; missing: string[] };

/**
 * Draft → published, after checking the whole event. When something is missing nothing changes and
 * the answer lists every gap, in the words the console shows. `role` is the caller's role on the event:
 * an event an admin holds, or whose owner no longer has organiser rights, only an admin publishes
 * (`publishHeld`), which also releases the hold (issue 35).
 */
export async function publishEvent(
  db: Db,
  clock: Clock,
  eventId: string,
  basedOn: number,
  role: EventRole,
): Promise<PublishResult> {
  return runnerFor(db).write(function* (db): Steps<PublishResult> {
    const tx = db as WriteTx;
    const { events } = tablesOf(tx);
    const event = (yield* row(
      tx
        .select({
          status: events.status,
          version: events.version,
          ownerId: events.ownerId,
          adminHoldAt: events.adminHoldAt,
        })
        .from(events)
        .where(eq(events.id, eventId)),
    ))!;
    if (event.version !== basedOn) throw conflict(EDITOR_MESSAGES.staleVersion);
    if (event.status !== 'draft') throw conflict(EDITOR_MESSAGES.notDraft);
    if (event.adminHoldAt) requireEventRole(role, 'publishHeld', EDITOR_MESSAGES.adminHold);
    // Read in the transaction: a revocation committed before this BEGIN is seen.
    const ownerRole = event.ownerId ? yield* accountRoleSteps(tx, event.ownerId) : 'none';
    if (ownerRole === 'none') requireEventRole(role, 'publishHeld', EDITOR_MESSAGES.ownerNotOrganiser);
    // A refused publish writes nothing, not even a new version.
    const missing = yield* findWhatIsMissingSteps(tx, eventId, clock.now());
    if (missing.length > 0) return { published: false, missing };
    const version = yield* claimVersionSteps(tx, eventId, basedOn);
    yield* changes(
      tx
        .update(events)
        .set({ status: 'published', adminHoldAt: null, adminHoldBy: null, adminHoldReason: null })
        .where(eq(events.id, eventId)),
    );
    yield* refreshEventListingSteps(tx, eventId);
    return { published: true, version };
  });
}

/** What stops the event from going on sale; empty when it can be published. */
export function* findWhatIsMissingSteps(tx: WriteTx, eventId: string, now: Date): Steps<string[]> {
  const { events, eventDates, slots, ticketTypes } = tablesOf(tx);
  const event = yield* row(
    tx
      .select({
        eventLocationText: events.eventLocationText,
        description: events.description,
        posterUrl: events.posterUrl,
        ownerId: events.ownerId,
        city: events.city,
        venueState: events.venueState,
      })
      .from(events)
      .where(eq(events.id, eventId)),
  );
  if (!event) return [];
  const missing: string[] = [];
  // A GST-registered organiser owes every buyer a tax invoice: no sales until the details for it are in.
  const invoicing = yield* ownerInvoicingStatusSteps(tx, event.ownerId);
  if (invoicing.registered && !invoicing.complete) missing.push(GST_MESSAGES.invoiceDetailsMissing);
  // Its tickets would be refused at Proceed (issue 36): a rate saved before the schedule changed. A
  // missing venue state is listed below for every organiser (registered or not), in the checklist's words.
  const saleProblem = yield* ticketSaleGstProblemSteps(tx, eventId, now);
  if (saleProblem?.kind === 'rateNotInForce') {
    missing.push(ticketSaleGstProblemMessage(saleProblem, 'organiser'));
  }
  if (!event.eventLocationText.trim()) missing.push('Add the venue.');
  // The place of supply is where the event is held (IGST Act s.12(6)): in Delhi/NCR or the Chandigarh
  // tricity the city cannot say which state that is, so the organiser must (issue 36).
  if (venueStateMissing(event)) missing.push(GST_MESSAGES.venueStateRequired);
  if (!event.description.trim()) missing.push('Add a description.');
  // Cards, the event page and link previews all fall back to the poster; the banner may be left out.
  if (!event.posterUrl) missing.push(IMAGE_MESSAGES.posterMissing);
  const liveSlots = yield* rows(
    tx
      .select({ id: slots.id, startTime: slots.startTime })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(and(eq(eventDates.eventId, eventId), eq(eventDates.isLive, true))),
  );
  const futureSlots = liveSlots.filter((s) => Date.parse(s.startTime) > now.getTime());
  if (futureSlots.length === 0) {
    missing.push('Add a date with a slot that has not started yet.');
    return missing;
  }
  let onSale = false;
  for (const slot of futureSlots) {
    const types = yield* rows(
      tx
        .select({
          isLive: ticketTypes.isLive,
          saleOpensAt: ticketTypes.saleOpensAt,
          saleClosesAt: ticketTypes.saleClosesAt,
        })
        .from(ticketTypes)
        .where(eq(ticketTypes.slotId, slot.id)),
    );
    onSale = types.some((t) => t.isLive && saleWindowState(t, now) !== 'closed');
    if (onSale) break;
  }
  if (!onSale) missing.push('Add a ticket type on sale to a slot that has not started yet.');
  return missing;
}
