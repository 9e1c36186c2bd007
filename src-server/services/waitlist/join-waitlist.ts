import { and, eq, sql } from 'drizzle-orm';
import type { TicketDetails } from '../../../shared/checkout-schemas.ts';
import { HOARDING_MESSAGES } from '../../../shared/hoarding-messages.ts';
import { perOrderMaxProblem } from '../../../shared/per-order-max.ts';
import { saleWindowMessage } from '../../../shared/sale-window.ts';
import { WAITLIST_MESSAGES } from '../../../shared/waitlist-schemas.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { eventDates, events, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { waitlistEntries } from '../../db/schema/on-sale.ts';
import { timeOrderedUuid } from '../../db/time-ordered-id.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { ticketsCountedTowardsMax } from '../inventory/hoarding.ts';
import { quotaLeftOfType } from '../quotas/quota-seats.ts';
import { requireAdmittedAccount } from '../waiting-room/require-admitted-account.ts';
import { placeInLine } from './place-in-line.ts';

/**
 * "Join waiting list" on a sold-out ticket type: a verified account (as for holding seats, ADR 0023)
 * asks for up to the type's per-order maximum, with the contact details the booking will carry. One
 * live entry per account and slot (the partial unique index decides, under the write lock). With the
 * event's waiting room on, only an account the room has admitted may join (ADR 0026, 0027). Returns
 * the entry and its place in line.
 */
export async function joinWaitlist(
  db: Db,
  userId: string,
  input: { ticketTypeId: string; quantity: number; details: TicketDetails },
  now: Date,
): Promise<{ entryId: string; place: number }> {
  const verified = db.select({ v: users.isEmailVerified }).from(users).where(eq(users.id, userId)).get();
  if (!verified?.v) throw forbidden(HOARDING_MESSAGES.emailNotVerified);
  return writeTransaction(db, (tx) => {
    const type = tx
      .select({
        id: ticketTypes.id,
        name: ticketTypes.name,
        availableTickets: ticketTypes.availableTickets,
        isLive: ticketTypes.isLive,
        isHidden: ticketTypes.isHidden,
        maxPerOrder: ticketTypes.maxPerOrder,
        saleOpensAt: ticketTypes.saleOpensAt,
        saleClosesAt: ticketTypes.saleClosesAt,
        slotId: slots.id,
        slotCancelledAt: slots.cancelledAt,
        dateLive: eventDates.isLive,
        eventId: events.id,
        eventStatus: events.status,
        maxTicketsPerBuyer: events.maxTicketsPerBuyer,
      })
      .from(ticketTypes)
      .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .innerJoin(events, eq(events.id, eventDates.eventId))
      .where(eq(ticketTypes.id, input.ticketTypeId))
      .get();
    // Drafts and cancelled events are not for sale to anyone: as for Proceed, they do not exist.
    // A hidden type (ADR 0038) is sold only with its access code, which an offer would go round.
    if (type?.eventStatus !== 'published' || !type.dateLive || type.isHidden) {
      throw notFound('Ticket type not found');
    }
    // While the event's waiting room is on, the list is for those it has admitted, as Proceed is: else
    // it would be a way round the queue to the seats that come back (issue 35).
    requireAdmittedAccount(tx, type.eventId, userId, now);
    if (!type.isLive || type.slotCancelledAt || saleWindowMessage(type, now)) {
      throw conflict(WAITLIST_MESSAGES.offSale);
    }
    // Sold out through its shared capacity (ADR 0039) is sold out too.
    if (Math.min(type.availableTickets, quotaLeftOfType(tx, type.id)) > 0) {
      throw conflict(WAITLIST_MESSAGES.notSoldOut);
    }
    const tooMany = perOrderMaxProblem(type, input.quantity);
    if (tooMany) throw badRequest(tooMany, { quantity: tooMany });
    // The offer is paid without a Proceed, so the organiser's per-buyer maximum is checked here, against
    // what the account holds and has bought for the event now.
    if (type.maxTicketsPerBuyer !== null) {
      const already = ticketsCountedTowardsMax(db, userId, type.eventId);
      if (already + input.quantity > type.maxTicketsPerBuyer) {
        throw conflict(HOARDING_MESSAGES.perBuyerMax(type.maxTicketsPerBuyer, already));
      }
    }
    const live = tx
      .select({ id: waitlistEntries.id })
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.userId, userId),
          sql`${waitlistEntries.status} in ('waiting', 'offered')`,
          eq(waitlistEntries.slotId, type.slotId),
        ),
      )
      .get();
    if (live) throw conflict(WAITLIST_MESSAGES.alreadyOnList);
    const entry = {
      id: timeOrderedUuid(now.getTime()),
      eventId: type.eventId,
      slotId: type.slotId,
      ticketTypeId: type.id,
      userId,
      quantity: input.quantity,
      details: input.details,
      createdAt: now.toISOString(),
    };
    tx.insert(waitlistEntries).values(entry).run();
    return { entryId: entry.id, place: placeInLine(tx, entry) };
  });
}
