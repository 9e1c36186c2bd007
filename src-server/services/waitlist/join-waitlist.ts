import { and, eq, sql } from 'drizzle-orm';
import type { TicketDetails } from '../../../shared/checkout-schemas.ts';
import { HOARDING_MESSAGES } from '../../../shared/hoarding-messages.ts';
import { perOrderMaxProblem } from '../../../shared/per-order-max.ts';
import { invoiceTaxableValuePaise, recipientAddressOf } from '../../../shared/recipient-address.ts';
import { saleWindowMessage } from '../../../shared/sale-window.ts';
import { WAITLIST_MESSAGES } from '../../../shared/waitlist-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { timeOrderedUuid } from '../../db/time-ordered-id.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { isUniqueViolation } from '../accounts/sign-up.ts';
import { admissionTaxesSteps } from '../checkout/checkout-taxes.ts';
import { ticketsCountedTowardsMaxSteps } from '../inventory/hoarding.ts';
import { quotaLeftOfTypeSteps } from '../quotas/quota-seats.ts';
import { admissionStateSteps, requireAdmission } from '../waiting-room/require-admitted-account.ts';
import { placeInLineSteps } from './place-in-line.ts';

/**
 * "Join waiting list" on a sold-out ticket type: a verified account (as for holding seats, ADR 0023)
 * asks for up to the type's per-order maximum, with the contact details the booking will carry. One
 * live entry per account and slot (the partial unique index decides, under the write lock). With the
 * event's waiting room on, only an account the room has admitted may join (ADR 0026, 0027). Returns
 * the entry and its place in line. Written once for both engines (ADR 0045).
 */
export async function joinWaitlist(
  db: Db,
  userId: string,
  input: JoinWaitlistInput,
  now: Date,
): Promise<{ entryId: string; place: number }> {
  const { users } = tablesOf(db);
  const [verified] = await db.select({ v: users.isEmailVerified }).from(users).where(eq(users.id, userId));
  if (!verified?.v) throw forbidden(HOARDING_MESSAGES.emailNotVerified);
  try {
    return await runnerFor(db).write((tx) => joinWaitlistSteps(tx, userId, input, now));
  } catch (error) {
    // Two joins of one account at once on PostgreSQL: the partial unique index refuses the second.
    if (isUniqueViolation(error)) throw conflict(WAITLIST_MESSAGES.alreadyOnList);
    throw error;
  }
}

type JoinWaitlistInput = { ticketTypeId: string; quantity: number; details: TicketDetails };

function* joinWaitlistSteps(
  tx: DbOrTx,
  userId: string,
  input: JoinWaitlistInput,
  now: Date,
): Steps<{ entryId: string; place: number }> {
  const { eventDates, events, slots, ticketTypes, waitlistEntries } = tablesOf(tx);
  const type = yield* row(
    tx
      .select({
        id: ticketTypes.id,
        name: ticketTypes.name,
        availableTickets: ticketTypes.availableTickets,
        isLive: ticketTypes.isLive,
        isHidden: ticketTypes.isHidden,
        maxPerOrder: ticketTypes.maxPerOrder,
        pricePaise: ticketTypes.pricePaise,
        personsPerTicket: ticketTypes.personAllowedPerTicket,
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
      .where(eq(ticketTypes.id, input.ticketTypeId)),
  );
  // Drafts and cancelled events are not for sale to anyone: as for Proceed, they do not exist.
  // A hidden type (ADR 0038) is sold only with its access code, which an offer would go round.
  if (type?.eventStatus !== 'published' || !type.dateLive || type.isHidden) {
    throw notFound('Ticket type not found');
  }
  // While the event's waiting room is on, the list is for those it has admitted, as Proceed is: else
  // it would be a way round the queue to the seats that come back (issue 35).
  requireAdmission(yield* admissionStateSteps(tx, type.eventId, userId, now));
  if (!type.isLive || type.slotCancelledAt || saleWindowMessage(type, now)) {
    throw conflict(WAITLIST_MESSAGES.offSale);
  }
  // Sold out through its shared capacity (ADR 0039) is sold out too.
  if (Math.min(type.availableTickets, yield* quotaLeftOfTypeSteps(tx, type.id)) > 0) {
    throw conflict(WAITLIST_MESSAGES.notSoldOut);
  }
  const tooMany = perOrderMaxProblem(type, input.quantity);
  if (tooMany) throw badRequest(tooMany, { quantity: tooMany });
  // The offer is paid without a Proceed, so the organiser's per-buyer maximum is checked here, against
  // what the account holds and has bought for the event now.
  if (type.maxTicketsPerBuyer !== null) {
    const already = yield* ticketsCountedTowardsMaxSteps(tx, userId, type.eventId);
    if (already + input.quantity > type.maxTicketsPerBuyer) {
      throw conflict(HOARDING_MESSAGES.perBuyerMax(type.maxTicketsPerBuyer, already));
    }
  }
  // The offer is confirmed and invoiced with these details, without a Proceed: Rule 46's address is
  // asked for here, by Proceed's rule on the invoice the offer will carry (this many at the type's price).
  const address = recipientAddressOf(
    {
      buyerGstin: input.details.buyerGstin,
      taxableValuePaise: invoiceTaxableValuePaise(
        [{ pricePaise: type.pricePaise, quantity: input.quantity, personsPerTicket: type.personsPerTicket }],
        [],
        yield* admissionTaxesSteps(tx, type.eventId),
      ),
    },
    input.details.buyerAddress,
  );
  if (!address.ok) throw badRequest(address.message, { buyerAddress: address.message });
  const live = yield* row(
    tx
      .select({ id: waitlistEntries.id })
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.userId, userId),
          sql`${waitlistEntries.status} in ('waiting', 'offered')`,
          eq(waitlistEntries.slotId, type.slotId),
        ),
      ),
  );
  if (live) throw conflict(WAITLIST_MESSAGES.alreadyOnList);
  const entry = {
    id: timeOrderedUuid(now.getTime()),
    eventId: type.eventId,
    slotId: type.slotId,
    ticketTypeId: type.id,
    userId,
    quantity: input.quantity,
    details: { ...input.details, buyerAddress: address.address ?? undefined },
    createdAt: now.toISOString(),
  };
  yield* changes(tx.insert(waitlistEntries).values(entry));
  return { entryId: entry.id, place: yield* placeInLineSteps(tx, entry) };
}
