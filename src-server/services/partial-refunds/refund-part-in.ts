import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { formatPaiseExact } from '../../../shared/money.ts';
import type { CancelTicketsLine } from '../../../shared/partial-refund-schemas.ts';
import { changes, row, runSync, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { BookedTicketLine, bookings } from '../../db/schema/bookings.ts';
import type { CancelledTicketLine, RefundPartKind } from '../../db/schema/partial-refunds.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, conflict } from '../../errors.ts';
import {
  attendeeTicketsOfBookingSteps,
  chooseAttendeeTickets,
  voidAttendeeTicketsSteps,
} from '../attendee-tickets/void-attendee-tickets.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { payerOfSteps } from '../bookings/payer.ts';
import { isBoxOfficeBookingSteps } from '../box-office/sales-channels.ts';
import { type DbOrTx, returnSeatsSteps } from '../inventory/holds.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { offerReturnedSeatsSteps } from '../waitlist/offer-returned-seats.ts';
import { issuePartialCreditNotesSteps } from './partial-credit-notes.ts';
import { partRefundedMail } from './refund-part-mails.ts';

/** Why a part refund is refused, in the words the console and My Bookings show. */
export const PART_REFUND_REFUSALS = {
  cancelled: 'This booking is cancelled; there is nothing left to refund in part.',
  nothingLeft: 'This booking has been refunded in full already.',
  onlyFeeLeft: 'Only the convenience fee is left to refund on this booking.',
  overLeft: (left: string) =>
    `You can refund at most ${left}: the rest of this booking has been refunded already.`,
  unknownTicket: 'That ticket type is not in this booking.',
  tooManyTickets: (name: string, n: number) =>
    `This booking has ${n} ${name} ${n === 1 ? 'ticket' : 'tickets'} left; you cannot cancel more.`,
  allTickets: 'To cancel every ticket, cancel the whole booking instead.',
} as const;

/** What is still refundable on a booking: paid, less its whole refund (if any) and every part refund. */
export interface RefundableLeft {
  totalPaise: number;
  /** Of it, the convenience fee and its GST not refunded yet (part refunds take the fee last). */
  feePaise: number;
}

/** Paise refunded in part so far on a booking (pending parts included: that money is promised). */
export function partRefundedPaise(tx: DbOrTx, bookingId: string): { amount: number; fee: number } {
  return runSync(partRefundedPaiseSteps(tx, bookingId));
}

/** `partRefundedPaise` written once for both engines (ADR 0045). */
export function* partRefundedPaiseSteps(
  tx: DbOrTx,
  bookingId: string,
): Steps<{ amount: number; fee: number }> {
  const { refundParts } = tablesOf(tx);
  const sums = yield* row(
    tx
      .select({
        amount: sql<number>`coalesce(sum(${refundParts.amountPaise}), 0)`,
        fee: sql<number>`coalesce(sum(${refundParts.feePaise}), 0)`,
      })
      .from(refundParts)
      .where(eq(refundParts.bookingId, bookingId)),
  );
  return { amount: Number(sums?.amount ?? 0), fee: Number(sums?.fee ?? 0) };
}

type RefundableBooking = {
  id: string;
  paymentId: string;
  totalAmountPaise: number;
  feeAmountPaise: number;
  igstAmountPaise: number;
};

export function refundableLeftOf(tx: DbOrTx, booking: RefundableBooking): RefundableLeft {
  return runSync(refundableLeftSteps(tx, booking));
}

/** `refundableLeftOf` written once for both engines (ADR 0045). */
export function* refundableLeftSteps(tx: DbOrTx, booking: RefundableBooking): Steps<RefundableLeft> {
  const { refunds } = tablesOf(tx);
  const whole = yield* row(
    tx.select({ amount: refunds.amountPaise }).from(refunds).where(eq(refunds.paymentId, booking.paymentId)),
  );
  const parts = yield* partRefundedPaiseSteps(tx, booking.id);
  const totalPaise = Math.max(0, booking.totalAmountPaise - (whole?.amount ?? 0) - parts.amount);
  const feePaise = Math.min(
    totalPaise,
    Math.max(0, booking.feeAmountPaise + booking.igstAmountPaise - parts.fee),
  );
  return { totalPaise, feePaise };
}

export interface RefundPartRequest {
  kind: RefundPartKind;
  /** What goes back; null: everything but the fee. Checked against what is left. */
  amountPaise: number | null;
  /**
   * The buyer's policy refund decides its own fee share; the organiser's amount takes the ticket money
   * first and the fee only once that is used up. Omitted: the organiser's rule.
   */
  feePaise?: number;
  reason: string;
  cancelTickets: CancelTicketsLine[];
  actorUserId: string;
}

/**
 * Refunds part of one confirmed booking inside the caller's write transaction (issue 40, ADR 0043):
 * checks the amount against what is still refundable (so repeated parts never add up to more than was
 * paid: the write lock is held from this read to the insert), cancels the chosen tickets (their seats
 * go back on sale only for tickets nobody was admitted with), records the part for the refund job,
 * issues credit notes for exactly the amount, records it in the order history and queues the buyer's
 * mail. Returns the part's id and amount; the caller issues it after commit.
 */
export function refundPartIn(
  tx: DbOrTx,
  deps: Pick<AppDeps, 'env'>,
  bookingId: string,
  request: RefundPartRequest,
  now: Date,
): { refundPartId: string; amountPaise: number; feePaise: number } {
  return runSync(refundPartSteps(tx as WriteTx, deps, bookingId, request, now));
}

/**
 * `refundPartIn` written once for both engines (ADR 0045). On PostgreSQL the booking's key is taken
 * before what is left is read (the same key its whole cancellation takes), so two part refunds of one
 * booking, racing from two servers, run one after the other and never add up to more than was paid.
 */
export function* refundPartSteps(
  tx: WriteTx,
  deps: Pick<AppDeps, 'env'>,
  bookingId: string,
  request: RefundPartRequest,
  now: Date,
): Steps<{ refundPartId: string; amountPaise: number; feePaise: number }> {
  const { bookings, refundParts } = tablesOf(tx);
  yield* serialize(bookingLockKey(bookingId));
  const booking = yield* row(tx.select().from(bookings).where(eq(bookings.id, bookingId)));
  if (!booking) throw conflict(PART_REFUND_REFUSALS.cancelled);
  if (booking.status !== 'confirmed') throw conflict(PART_REFUND_REFUSALS.cancelled);
  const left = yield* refundableLeftSteps(tx, booking);
  if (left.totalPaise === 0) throw conflict(PART_REFUND_REFUSALS.nothingLeft);
  const ticketsLeft = left.totalPaise - left.feePaise;
  const amountPaise = request.amountPaise ?? ticketsLeft;
  if (request.amountPaise === null && ticketsLeft === 0) throw conflict(PART_REFUND_REFUSALS.onlyFeeLeft);
  if (amountPaise > left.totalPaise)
    throw badRequest(PART_REFUND_REFUSALS.overLeft(formatPaiseExact(left.totalPaise)), {
      amountPaise: PART_REFUND_REFUSALS.overLeft(formatPaiseExact(left.totalPaise)),
    });
  const feePaise = Math.min(left.feePaise, request.feePaise ?? Math.max(0, amountPaise - ticketsLeft));

  const cancelled = yield* cancelTicketsSteps(tx, deps, booking, request.cancelTickets, now);
  const id = randomUUID();
  const at = now.toISOString();
  const boxOffice = yield* isBoxOfficeBookingSteps(tx, booking.id);
  yield* changes(
    tx.insert(refundParts).values({
      id,
      paymentId: booking.paymentId,
      orderId: booking.orderId,
      bookingId: booking.id,
      // The money goes back to whoever paid, also after a transfer (ADR 0025).
      userId: booking.paidByUserId ?? booking.userId,
      amountPaise,
      feePaise,
      kind: request.kind,
      reason: request.reason,
      actorUserId: request.actorUserId,
      cancelledTickets: cancelled,
      // Nothing to send: free tickets, or a box-office sale whose money the organiser hands back at the
      // desk (ADR 0042: it took nothing through the gateway). Done already; the job never asks the gateway.
      status: amountPaise === 0 || boxOffice ? 'processed' : 'pending',
      createdAt: at,
      updatedAt: at,
    }),
  );
  // GST: the part given back reduces the supply; the ticket money credits the admission invoice and the
  // fee's share the platform's, each head in its invoice's proportion (partial-credit-notes.ts).
  yield* issuePartialCreditNotesSteps(
    tx,
    { bookingId: booking.id, refundPartId: id, reason: request.reason },
    { admission: amountPaise - feePaise, platform_fee: feePaise },
    now,
    // A buyer's cancelled tickets are what is credited, at the tickets' rate (an add-on kept is not).
    request.kind === 'buyer' && cancelled.length > 0 ? 'tickets' : 'invoice',
  );
  const tickets = describeTickets(cancelled);
  yield* recordBookingEventSteps(tx, {
    bookingId: booking.id,
    kind: 'partly_refunded',
    actor: request.kind,
    actorUserId: request.actorUserId,
    at: now,
    details: { amountPaise, reason: request.reason, ticketsCancelled: tickets || null },
  });
  const payer = yield* payerOfSteps(tx, booking);
  yield* enqueueMailSteps(
    tx,
    partRefundedMail({
      refundPartId: id,
      bookingId: booking.id,
      eventName: booking.eventName,
      userName: payer ? (payer.name ?? '') : booking.userName,
      userEmail: payer ? payer.email : booking.userEmail,
      amountPaise,
      reason: request.reason,
      byBuyer: request.kind === 'buyer',
      ticketsCancelled: tickets,
      supportEmail: deps.env.SUPPORT_EMAIL,
    }),
    now,
  );
  return { refundPartId: id, amountPaise, feePaise };
}

/**
 * Takes the chosen tickets off the booking's lines (quantities, persons, the ticket count and the persons
 * the gate lets in). A cancelled ticket someone walked in on stays sold: its seat is never sold again
 * (issue 35). Cancelling it is allowed (the organiser may take back a ticket already used; pretix cancels
 * a checked-in position too, without giving its quota back). Which cancelled tickets were used:
 * - of a type whose attendees have their own QR (ADR 0046), each ticket's own check-ins say: the unused
 *   ones are cancelled first, and every used one that still has to go counts as used;
 * - of the types on the booking's QR, only a count is known: people its QR ever let in are taken to have
 *   used the tickets the booking keeps of those types first, and the cancelled tickets their count still
 *   needs are used.
 * Every other cancelled seat goes back to `available` and to the waiting list, as a whole cancellation's
 * do (cancel-booking-in.ts).
 */
function* cancelTicketsSteps(
  tx: WriteTx,
  deps: Pick<AppDeps, 'env'>,
  booking: typeof bookings.$inferSelect,
  wanted: CancelTicketsLine[],
  now: Date,
): Steps<CancelledTicketLine[]> {
  const { bookings } = tablesOf(tx);
  if (wanted.length === 0) return [];
  const byType = new Map<string, number>();
  for (const w of wanted) byType.set(w.ticketTypeId, (byType.get(w.ticketTypeId) ?? 0) + w.quantity);
  const lines: BookedTicketLine[] = booking.ticketTypes.map((l) => ({ ...l }));
  for (const [typeId, quantity] of byType) {
    const line = lines.find((l) => l.id === typeId);
    if (!line) throw badRequest(PART_REFUND_REFUSALS.unknownTicket);
    if (quantity > line.quantity)
      throw badRequest(PART_REFUND_REFUSALS.tooManyTickets(line.name, line.quantity));
  }
  const cancelledCount = [...byType.values()].reduce((a, b) => a + b, 0);
  const remainingCount = lines.reduce((n, l) => n + l.quantity, 0) - cancelledCount;
  if (remainingCount <= 0) throw badRequest(PART_REFUND_REFUSALS.allTickets);

  const attendees = yield* attendeeTicketsOfBookingSteps(tx, booking);
  // Persons kept on the booking's QR after the cancellation, against the persons it ever let in.
  let keptPersons = 0;
  for (const l of lines) {
    if (attendees.live.has(l.id)) continue;
    keptPersons += (l.quantity - (byType.get(l.id) ?? 0)) * l.personAllowedPerTicket;
  }
  let usedBeyondKept = Math.max(0, attendees.admittedOnBookingQr - keptPersons);

  const out: CancelledTicketLine[] = [];
  const voided: { ticketTypeId: string; positions: number[] }[] = [];
  let cancelledPersons = 0;
  for (const line of lines) {
    const quantity = byType.get(line.id);
    if (!quantity) continue;
    const own = attendees.live.get(line.id);
    let used: number;
    if (own) {
      const chosen = chooseAttendeeTickets(own, quantity);
      voided.push({ ticketTypeId: line.id, positions: chosen.positions });
      used = chosen.used;
    } else {
      const perTicket = Math.max(1, line.personAllowedPerTicket);
      used = Math.min(quantity, Math.ceil(usedBeyondKept / perTicket));
      usedBeyondKept = Math.max(0, usedBeyondKept - used * perTicket);
    }
    const seatsReturned = quantity - used;
    line.quantity -= quantity;
    line.totalPersons = line.quantity * line.personAllowedPerTicket;
    cancelledPersons += quantity * line.personAllowedPerTicket;
    out.push({
      id: line.id,
      name: line.name,
      quantity,
      seatsReturned,
      unitPaise: line.pricePaise - (line.discountPerTicketPaise ?? 0),
    });
  }
  // Back to `available` and the types' shared capacities, as a whole cancellation's (ADR 0039), in id order.
  const returned = out.map((l) => ({ ticketTypeId: l.id, quantity: l.seatsReturned }));
  yield* returnSeatsSteps(tx, returned);
  for (const line of returned) {
    if (line.quantity > 0) yield* offerReturnedSeatsSteps(tx, deps, line.ticketTypeId, now);
  }
  yield* changes(
    tx
      .update(bookings)
      .set({
        ticketTypes: lines.filter((l) => l.quantity > 0),
        ticketCount: remainingCount,
        totalUserAllowed: Math.max(
          booking.totalUserAllowed - cancelledPersons,
          booking.numberOfUserCheckedIn,
        ),
      })
      .where(and(eq(bookings.id, booking.id), eq(bookings.status, 'confirmed'))),
  );
  // Cancelled attendees' own QRs stop admitting (ADR 0046).
  yield* voidAttendeeTicketsSteps(tx, booking.id, voided, now);
  return out;
}

/** "1 × Floor, 2 × Balcony" */
export function describeTickets(lines: CancelledTicketLine[]): string {
  return lines.map((l) => `${l.quantity} × ${l.name}`).join(', ');
}
