import { and, asc, eq, lte, notInArray, sql } from 'drizzle-orm';
import { saleWindowMessage } from '../../../shared/sale-window.ts';
import { changes, row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { checkoutTaxesSteps } from '../checkout/checkout-taxes.ts';
import { ticketsCountedTowardsMaxSteps } from '../inventory/hoarding.ts';
import { type DbOrTx, HOLD_GRACE_MS, reserveSteps } from '../inventory/holds.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { siteUrl } from '../mail/site-url.ts';
import { quotaLeftOfTypeSteps } from '../quotas/quota-seats.ts';
import { admissionStateSteps } from '../waiting-room/require-admitted-account.ts';
import { offerPagePath, waitlistOfferMail } from './offer-mail.ts';

/** What the waiting list needs from the app: the public address for the offer mail's link. */
export type WaitlistDeps = Pick<AppDeps, 'env'>;

/**
 * Seats of a ticket type came back (or may have): offers them to the waiting list, inside the caller's
 * write transaction, so nobody's Proceed can take them in between. Goes down the list in order of
 * joining and offers to every entry whose quantity still fits what is available; an entry that wants
 * more than is left keeps its place for the next return (ADR 0027). Each offer is an ordinary active
 * hold for the entry's account, expiring after the event's offer time, with its mail queued in the same
 * transaction. Only 'waiting' entries are offered, so an entry whose offer just ended is never offered
 * again. The event's per-buyer maximum is checked again here, as at joining: an account that has
 * bought or holds seats of the event since it joined, so that the offer would take it over, is passed
 * over this time and keeps its place (it fits again once it has fewer). So is, while the event's
 * waiting room is on, an account the room has not admitted (it joined while the room was off): it could
 * not pay, and the seats would sit on hold for the offer's time while admitted buyers see "Sold Out".
 * Returns the ids of the entries offered.
 */
export function offerReturnedSeats(
  tx: DbOrTx,
  deps: WaitlistDeps,
  ticketTypeId: string,
  now: Date,
): string[] {
  return runSync(offerReturnedSeatsSteps(tx, deps, ticketTypeId, now));
}

/**
 * `offerReturnedSeats` written once for both engines (ADR 0045). Its caller has written the type's row
 * in this transaction (given seats back, changed its capacity, or `lockForOfferSteps`), and the rows of
 * the type's quotas with it: on PostgreSQL those row locks, held to the end of the transaction, are what
 * keep two offers of one waiting list apart. The second reads the list only once the first has
 * committed, so it never offers the same seats again nor passes over the person the first offered
 * to; and no Proceed takes the type's or its quotas' seats between this read of what is available and
 * the offer's hold. An advisory lock (`serialize`) taken here instead would come after those row locks
 * in a cancellation but before them in a transaction that had not written them, and the two would
 * deadlock.
 */
export function* offerReturnedSeatsSteps(
  tx: DbOrTx,
  deps: WaitlistDeps,
  ticketTypeId: string,
  now: Date,
): Steps<string[]> {
  const { ticketTypes, slots, eventDates, events, waitlistEntries } = tablesOf(tx);
  const type = yield* row(
    tx
      .select({
        name: ticketTypes.name,
        availableTickets: ticketTypes.availableTickets,
        isLive: ticketTypes.isLive,
        saleOpensAt: ticketTypes.saleOpensAt,
        saleClosesAt: ticketTypes.saleClosesAt,
        slotId: slots.id,
        slotStart: slots.startTime,
        slotCancelledAt: slots.cancelledAt,
        eventDateId: eventDates.id,
        eventId: events.id,
        eventName: events.name,
        eventStatus: events.status,
        platformFeeRate: events.platformFeeRate,
        offerMinutes: events.waitlistOfferMinutes,
        maxTicketsPerBuyer: events.maxTicketsPerBuyer,
      })
      .from(ticketTypes)
      .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .innerJoin(events, eq(events.id, eventDates.eventId))
      .where(eq(ticketTypes.id, ticketTypeId)),
  );
  if (!type?.isLive || type.slotCancelledAt || type.eventStatus !== 'published') return [];
  if (saleWindowMessage(type, now)) return [];

  const offered: string[] = [];
  const passedOver: string[] = [];
  // A shared capacity (ADR 0039) may allow fewer than the type has: an offer beyond it would throw.
  let available = Math.min(type.availableTickets, yield* quotaLeftOfTypeSteps(tx, ticketTypeId));
  while (available > 0) {
    const next = yield* row(
      tx
        .select()
        .from(waitlistEntries)
        .where(
          and(
            eq(waitlistEntries.ticketTypeId, ticketTypeId),
            // A literal, so the plan uses waitlist_entries_queue_idx (ticket type, status, joined).
            sql`${waitlistEntries.status} = 'waiting'`,
            lte(waitlistEntries.quantity, available),
            passedOver.length > 0 ? notInArray(waitlistEntries.id, passedOver) : undefined,
          ),
        )
        .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
        .limit(1),
    );
    if (!next) break;
    if (
      (type.maxTicketsPerBuyer !== null &&
        (yield* ticketsCountedTowardsMaxSteps(tx, next.userId, type.eventId)) + next.quantity >
          type.maxTicketsPerBuyer) ||
      !(yield* mayBuyPastWaitingRoom(tx, type.eventId, next.userId, now))
    ) {
      passedOver.push(next.id);
      continue;
    }
    const payBy = new Date(now.getTime() + type.offerMinutes * 60_000).toISOString();
    const hold = yield* reserveSteps(
      tx,
      {
        userId: next.userId,
        eventId: type.eventId,
        eventDateId: type.eventDateId,
        slotId: type.slotId,
        lines: [{ ticketTypeId, quantity: next.quantity }],
        details: next.details,
        userCity: null,
        platformFeeRate: type.platformFeeRate,
        taxes: yield* checkoutTaxesSteps(tx, deps.env, type.eventId),
      },
      now,
      // Like a Proceed's hold, it outlives the time to pay by a grace, so a payment made at the last
      // second can still be verified; the Pay button stops at `payBy`.
      { sessionExpiresAt: payBy, expiresAt: new Date(Date.parse(payBy) + HOLD_GRACE_MS).toISOString() },
    );
    yield* changes(
      tx
        .update(waitlistEntries)
        .set({ status: 'offered', offerHoldId: hold.id, offeredAt: now.toISOString(), offerExpiresAt: payBy })
        .where(eq(waitlistEntries.id, next.id)),
    );
    yield* enqueueMailSteps(
      tx as WriteTx,
      waitlistOfferMail({
        entryId: next.id,
        to: next.details.email,
        name: next.details.name,
        eventName: type.eventName,
        slotStart: type.slotStart,
        ticketTypeName: type.name,
        quantity: next.quantity,
        totalPaise: hold.totalPaise,
        payBy,
        url: `${siteUrl(deps)}${offerPagePath(next.id)}`,
      }),
      now,
    );
    offered.push(next.id);
    available -= next.quantity;
  }
  return offered;
}

/**
 * For a transaction that has given no seats of the type back (the safety net's, waitlist-job.ts):
 * writes the type's row and its quotas' rows without changing them, in the order a hold takes them
 * (the type, then its quotas by id), so on PostgreSQL the offer that follows holds their locks as a
 * cancellation's would.
 */
export function* lockForOfferSteps(tx: DbOrTx, ticketTypeId: string): Steps<void> {
  const { ticketTypes, quotas, quotaTicketTypes } = tablesOf(tx);
  yield* changes(
    tx
      .update(ticketTypes)
      .set({ availableTickets: sql`${ticketTypes.availableTickets}` })
      .where(eq(ticketTypes.id, ticketTypeId)),
  );
  const inQuotas = yield* rows(
    tx
      .select({ quotaId: quotaTicketTypes.quotaId })
      .from(quotaTicketTypes)
      .where(eq(quotaTicketTypes.ticketTypeId, ticketTypeId))
      .orderBy(asc(quotaTicketTypes.quotaId)),
  );
  for (const { quotaId } of inQuotas) {
    yield* changes(
      tx
        .update(quotas)
        .set({ available: sql`${quotas.available}` })
        .where(eq(quotas.id, quotaId)),
    );
  }
}

/** The waiting room's say (ADR 0026): no room, or the account's place has been reached. */
function* mayBuyPastWaitingRoom(tx: DbOrTx, eventId: string, userId: string, now: Date): Steps<boolean> {
  const state = yield* admissionStateSteps(tx, eventId, userId, now);
  return state === 'no-room' || state === 'admitted';
}
