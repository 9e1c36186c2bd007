import { and, eq } from 'drizzle-orm';
import type { FeeTaxSplit } from '../../../shared/pricing.ts';
import type { DbOrTx } from '../../db/client.ts';
import { readSnapshot } from '../../db/engine/reads.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { BookingStatus } from '../../db/schema/bookings.ts';
import type { RefundStatus } from '../../db/schema/payments.ts';
import { notFound } from '../../errors.ts';
import { addOnLabel, addOnsOfBookingsSteps } from '../add-ons/booking-add-ons.ts';
import { everAdmitted } from '../gate/ever-admitted.ts';
import { feeTaxSplitOfBookingSteps } from '../invoices/fee-tax-split.ts';
import { listRefundPartsSteps, type RefundParts } from '../partial-refunds/list-refund-parts.ts';
import { answersOfBookingSteps, type BookingAnswers } from '../questions/booking-answers.ts';
import { type BookingHistoryEntry, listBookingHistorySteps } from './booking-history.ts';
import { EVENT_BOOKING_NOT_FOUND } from './cancel-booking.ts';
import { type CheckInHistory, listBookingCheckInsSteps } from './list-check-ins.ts';

/** One booking as its event's team sees it on the console's booking page. */
export interface EventBooking {
  id: string;
  eventId: string;
  eventName: string;
  status: BookingStatus;
  cancelledAt: string | null;
  buyer: { name: string; email: string; phone: string; state: string; city: string | null };
  slotStart: string;
  slotEnd: string;
  lines: { id: string; name: string; quantity: number; pricePaise: number }[];
  ticketCount: number;
  /** Its add-ons (ADR 0041), each with what it cost, GST included: in the total, not the subtotal. */
  addOns: { id: string; label: string; totalPaise: number }[];
  /** The code applied at checkout and what it took off the tickets (the subtotal is after it). */
  discount: { code: string; paise: number } | null;
  amounts: {
    subtotalPaise: number;
    addOnsPaise: number;
    feePaise: number;
    igstPaise: number;
    totalPaise: number;
  };
  /** How the fee invoice levied the fee's GST, so the view names the heads it does (issue 36); null: none. */
  feeTaxSplit: FeeTaxSplit | null;
  paymentId: string;
  orderId: string;
  bookedAt: string;
  refund: {
    status: RefundStatus;
    amountPaise: number;
    attempts: number;
    lastError: string | null;
    gatewayRefundId: string | null;
    updatedAt: string;
  } | null;
  checkIns: CheckInHistory;
  /**
   * Whether anyone was ever admitted with it (an undone admission too): cancelling it then needs the
   * organiser's explicit "refund anyway", and its seats stay off sale (issue 35).
   */
  usedAtGate: boolean;
  /** Every change to it, who made it and when, oldest first (issue 40; read-only). */
  history: BookingHistoryEntry[];
  /** Attendee names and answers to the ticket types' questions (issue 40). */
  answers: BookingAnswers;
  /** Its part refunds with their credit notes, and what is still refundable (ADR 0043). */
  partRefunds: RefundParts;
}

/**
 * A booking of this event (another event's booking id answers as not found), its parts read in one
 * snapshot on either engine (ADR 0045), so its history, refunds and check-ins agree with each other.
 */
export function getEventBooking(db: DbOrTx, eventId: string, bookingId: string): Promise<EventBooking> {
  return readSnapshot(db, (d) => eventBookingSteps(d, eventId, bookingId));
}

function* eventBookingSteps(db: DbOrTx, eventId: string, bookingId: string): Steps<EventBooking> {
  const { bookings, refunds } = tablesOf(db);
  const found = yield* row(
    db
      .select({ booking: bookings, usedAtGate: everAdmitted(bookings) })
      .from(bookings)
      .where(and(eq(bookings.id, bookingId), eq(bookings.eventId, eventId))),
  );
  if (!found) throw notFound(EVENT_BOOKING_NOT_FOUND);
  const b = found.booking;
  const addOns = (yield* addOnsOfBookingsSteps(db, [b.id])).get(b.id) ?? [];
  const refund = yield* row(
    db
      .select({
        status: refunds.status,
        amountPaise: refunds.amountPaise,
        attempts: refunds.attempts,
        lastError: refunds.lastError,
        gatewayRefundId: refunds.gatewayRefundId,
        updatedAt: refunds.updatedAt,
      })
      .from(refunds)
      .where(eq(refunds.paymentId, b.paymentId)),
  );
  return {
    id: b.id,
    eventId: b.eventId,
    eventName: b.eventName,
    status: b.status,
    cancelledAt: b.cancelledAt,
    buyer: { name: b.userName, email: b.userEmail, phone: b.userPhone, state: b.userState, city: b.userCity },
    slotStart: b.ticketSlot,
    slotEnd: b.ticketSlotEnd,
    lines: b.ticketTypes.map((l) => ({
      id: l.id,
      name: l.name,
      quantity: l.quantity,
      pricePaise: l.pricePaise,
    })),
    ticketCount: b.ticketCount,
    addOns: addOns.map((a) => ({ id: a.id, label: addOnLabel(a), totalPaise: a.totalPaise })),
    discount: b.discountCode && b.discountPaise > 0 ? { code: b.discountCode, paise: b.discountPaise } : null,
    amounts: {
      subtotalPaise: b.subtotalAmountPaise,
      addOnsPaise: addOns.reduce((sum, a) => sum + a.totalPaise, 0),
      feePaise: b.feeAmountPaise,
      igstPaise: b.igstAmountPaise,
      totalPaise: b.totalAmountPaise,
    },
    feeTaxSplit: yield* feeTaxSplitOfBookingSteps(db, b.id),
    paymentId: b.paymentId,
    orderId: b.orderId,
    bookedAt: b.createdAt,
    refund: refund ?? null,
    checkIns: yield* listBookingCheckInsSteps(db, b.id),
    usedAtGate: found.usedAtGate,
    history: yield* listBookingHistorySteps(db, b.id),
    answers: yield* answersOfBookingSteps(db, b.id),
    partRefunds: yield* listRefundPartsSteps(db, b),
  };
}
