import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { admissionKindOf } from '../../../shared/gst.ts';
import { venueStatesOfCity } from '../../../shared/gst-states.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { readSnapshot } from '../../db/engine/reads.ts';
import { row, rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { ticketTreeSteps } from '../catalog/ticket-tree.ts';
import { ticketSaleGstProblemSteps } from '../checkout/checkout-taxes.ts';
import { ownerInvoicingStatusSteps } from '../invoices/invoicing-status.ts';

/**
 * Everything the editor shows about one event, drafts included: its details with the version edits must
 * carry, and its dates → slots → ticket types with sold and held counts (sold = total − available − held),
 * read in one snapshot on either engine so the counts agree.
 */
export function getEditableEvent(db: Db, eventId: string, now: Date) {
  return readSnapshot(db, (db) => editableEventSteps(db, eventId, now));
}

function* editableEventSteps(db: DbOrTx, eventId: string, now: Date) {
  const { artists, events, holdItems, holds } = tablesOf(db);
  const event = (yield* row(
    db
      .select({
        id: events.id,
        name: events.name,
        category: events.category,
        city: events.city,
        eventLocationText: events.eventLocationText,
        googleMapsEmbedLink: events.googleMapsEmbedLink,
        description: events.description,
        ageRestrictions: events.ageRestrictions,
        language: events.language,
        termsAndConditions: events.termsAndConditions,
        platformFeeRate: events.platformFeeRate,
        taxRate: events.taxRate,
        taxInclusive: events.taxInclusive,
        venueState: events.venueState,
        admissionKind: events.admissionKind,
        posterUrl: events.posterUrl,
        imagesUrls: events.imagesUrls,
        maxTicketsPerBuyer: events.maxTicketsPerBuyer,
        refundCutoffHours: events.refundCutoffHours,
        refundRule: events.refundRule,
        refundPercent: events.refundPercent,
        transfersAllowed: events.transfersAllowed,
        waitlistOfferMinutes: events.waitlistOfferMinutes,
        maxTransfersPerBooking: events.maxTransfersPerBooking,
        status: events.status,
        version: events.version,
        ownerId: events.ownerId,
        adminHoldAt: events.adminHoldAt,
        adminHoldReason: events.adminHoldReason,
      })
      .from(events)
      .where(eq(events.id, eventId)),
  ))!;
  const lineup = yield* rows(
    db
      .select({ name: artists.name, imageUrl: artists.imageUrl })
      .from(artists)
      .where(eq(artists.eventId, eventId))
      .orderBy(asc(artists.position), asc(artists.id)),
  );
  const tree = yield* ticketTreeSteps(db, eventId, 'all');
  const typeIds = tree.flatMap((d) => d.slots.flatMap((s) => s.tickets.map((t) => t.id)));
  const heldRows = typeIds.length
    ? yield* rows(
        db
          .select({ id: holdItems.ticketTypeId, held: sql<number>`sum(${holdItems.quantity})` })
          .from(holdItems)
          .innerJoin(holds, eq(holds.id, holdItems.holdId))
          .where(and(inArray(holdItems.ticketTypeId, typeIds), eq(holds.status, 'active')))
          .groupBy(holdItems.ticketTypeId),
      )
    : [];
  // PostgreSQL answers a sum as text (numeric).
  const held = new Map(heldRows.map((r) => [r.id, Number(r.held)]));
  const { ownerId, imagesUrls, adminHoldAt, adminHoldReason, ...details } = event;
  return {
    ...details,
    /**
     * The GST section's choices (issue 36): the states the city's venues may be in (one: the default; more:
     * the organiser must choose), and the kind of admission the category suggests.
     */
    venueStates: venueStatesOfCity(details.city),
    defaultAdmissionKind: admissionKindOf(details.category, null),
    /** The owner's GST standing, for the publish checklist (issue 35). */
    invoicing: yield* ownerInvoicingStatusSteps(db, ownerId),
    /**
     * Why the tickets are not sold (issue 36): a rate the GST schedule in force no longer has, or no venue
     * state where the city spans states. The GST section and the publish section say what to do. Null:
     * nothing to do.
     */
    ticketSaleGstProblem: yield* ticketSaleGstProblemSteps(db, eventId, now),
    /** An admin took the event off sale: the editor says so instead of offering to publish. */
    adminHold: adminHoldAt ? { at: adminHoldAt, reason: adminHoldReason } : null,
    bannerUrl: imagesUrls[0] ?? null,
    language: details.language ?? '',
    googleMapsEmbedLink: details.googleMapsEmbedLink ?? '',
    artists: lineup,
    dates: tree.map((date) => ({
      ...date,
      slots: date.slots.map((slot) => ({
        ...slot,
        tickets: slot.tickets.map((type) => {
          const heldNow = held.get(type.id) ?? 0;
          return { ...type, held: heldNow, sold: type.totalTickets - type.availableTickets - heldNow };
        }),
      })),
    })),
  };
}
