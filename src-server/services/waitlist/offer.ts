import { and, eq } from 'drizzle-orm';
import { admissionTaxOf } from '../../../shared/pricing.ts';
import { WAITLIST_MESSAGES, type WaitlistEntryInput } from '../../../shared/waitlist-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WaitlistStatus } from '../../db/schema/on-sale.ts';
import { notFound } from '../../errors.ts';
import type { DbOrTx } from '../inventory/holds.ts';

export interface WaitlistOffer {
  entryId: string;
  status: WaitlistStatus;
  /** True while the seats are held and Pay can still open the payment window. */
  live: boolean;
  eventId: string;
  eventName: string;
  eventLocation: string;
  slotStart: string;
  slotEnd: string;
  ticketTypeName: string;
  quantity: number;
  /** The hold's own amounts, computed by the server when the seats were held. */
  unitPricePaise: number | null;
  subtotalPaise: number | null;
  feePaise: number | null;
  igstPaise: number | null;
  /** GST added on top of tax-exclusive ticket prices (issue 16); 0 when the prices include it. */
  admissionTaxPaise: number | null;
  totalPaise: number | null;
  payBy: string | null;
}

/**
 * The entry, its offer hold and what the page shows; only the entry's own account sees it. Written once
 * for both engines (ADR 0045): a read of the page, and a step of Pay's transaction.
 */
export function* readOfferSteps(db: DbOrTx, userId: string, entryId: string, now: Date) {
  const { events, holds, slots, ticketTypes, waitlistEntries } = tablesOf(db);
  const found = yield* row(
    db
      .select({
        entry: waitlistEntries,
        hold: holds,
        eventName: events.name,
        eventLocation: events.eventLocationText,
        slotStart: slots.startTime,
        slotEnd: slots.endTime,
        ticketTypeName: ticketTypes.name,
      })
      .from(waitlistEntries)
      .innerJoin(events, eq(events.id, waitlistEntries.eventId))
      .innerJoin(slots, eq(slots.id, waitlistEntries.slotId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, waitlistEntries.ticketTypeId))
      .leftJoin(holds, eq(holds.id, waitlistEntries.offerHoldId))
      .where(and(eq(waitlistEntries.id, entryId), eq(waitlistEntries.userId, userId))),
  );
  if (!found) throw notFound(WAITLIST_MESSAGES.notFound);
  const { entry, hold } = found;
  const live =
    entry.status === 'offered' &&
    hold?.status === 'active' &&
    now.getTime() < Date.parse(hold.sessionExpiresAt);
  return { ...found, live };
}

/** The offer page (the mail's link): the held tickets, their amounts and whether Pay still works. */
export function describeOffer(
  db: Db,
  userId: string,
  input: WaitlistEntryInput,
  now: Date,
): Promise<WaitlistOffer> {
  return runStatements(db, (d) => describeOfferSteps(d, userId, input, now));
}

function* describeOfferSteps(
  db: DbOrTx,
  userId: string,
  input: WaitlistEntryInput,
  now: Date,
): Steps<WaitlistOffer> {
  const { holdItems } = tablesOf(db);
  const { entry, hold, live, ...shown } = yield* readOfferSteps(db, userId, input.entryId, now);
  const unit = hold
    ? yield* row(
        db
          .select({ pricePaise: holdItems.pricePaise })
          .from(holdItems)
          .where(and(eq(holdItems.holdId, hold.id), eq(holdItems.ticketTypeId, entry.ticketTypeId))),
      )
    : undefined;
  return {
    entryId: entry.id,
    status: entry.status,
    live,
    eventId: entry.eventId,
    ...shown,
    quantity: entry.quantity,
    unitPricePaise: unit?.pricePaise ?? null,
    subtotalPaise: hold?.subtotalPaise ?? null,
    feePaise: hold?.feePaise ?? null,
    igstPaise: hold?.igstPaise ?? null,
    // An offer's hold is tickets only (offer-returned-seats.ts reserves no add-ons).
    admissionTaxPaise: hold ? admissionTaxOf({ ...hold, addOnsPaise: 0 }) : null,
    totalPaise: hold?.totalPaise ?? null,
    payBy: hold ? hold.sessionExpiresAt : null,
  };
}
