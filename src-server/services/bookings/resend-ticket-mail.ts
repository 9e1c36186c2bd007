import { and, eq } from 'drizzle-orm';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { conflict, notFound, tooManyRequests } from '../../errors.ts';
import { addOnsOfBookingsSteps } from '../add-ons/booking-add-ons.ts';
import { feeTaxSplitOfBookingSteps } from '../invoices/fee-tax-split.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { siteUrl } from '../mail/site-url.ts';
import { bookingConfirmedMail } from '../payments/booking-mail.ts';
import { type RateLimit, rateLimitSteps } from '../rate-limits/rate-limits.ts';
import { EVENT_BOOKING_NOT_FOUND } from './cancel-booking.ts';

/** A buyer's inbox is not a target: a few resends of one booking an hour, and a cap per team member. */
export const RESEND_PER_BOOKING: RateLimit = { name: 'resend-ticket-booking', max: 3, windowMs: 60 * 60_000 };
export const RESEND_PER_SENDER: RateLimit = { name: 'resend-ticket-sender', max: 30, windowMs: 60 * 60_000 };
export const RESEND_LIMITED_MESSAGE = 'This ticket was sent several times recently. Please try again later.';
export const RESEND_CANCELLED_MESSAGE = 'This booking is cancelled; its ticket cannot be sent.';

/**
 * Sends the booking's confirmation mail (with the ticket link and calendar file) to the buyer again, on
 * either engine (ADR 0045). The outbox keeps one mail per resend key (the booking and the moment).
 */
export async function resendTicketMail(
  deps: AppDeps,
  eventId: string,
  bookingId: string,
  senderId: string,
): Promise<{ sentTo: string }> {
  const { b, addOns, feeTaxSplit } = await runStatements(deps.db, function* (db) {
    const { bookings } = tablesOf(db);
    const b = yield* row(
      db
        .select()
        .from(bookings)
        .where(and(eq(bookings.id, bookingId), eq(bookings.eventId, eventId))),
    );
    if (!b) throw notFound(EVENT_BOOKING_NOT_FOUND);
    if (b.status !== 'confirmed') throw conflict(RESEND_CANCELLED_MESSAGE);
    return {
      b,
      addOns: (yield* addOnsOfBookingsSteps(db, [b.id])).get(b.id),
      feeTaxSplit: yield* feeTaxSplitOfBookingSteps(db, b.id),
    };
  });
  const now = deps.clock.now();
  const counted = [
    { limit: RESEND_PER_BOOKING, key: b.id },
    { limit: RESEND_PER_SENDER, key: senderId },
  ];
  const allowed = await runnerFor(deps.db).write((tx) => rateLimitSteps(tx as WriteTx, counted, now));
  if (!allowed) throw tooManyRequests(RESEND_LIMITED_MESSAGE);
  const mail = bookingConfirmedMail({
    bookingId: b.id,
    userName: b.userName,
    userEmail: b.userEmail,
    eventName: b.eventName,
    venue: b.eventLocation,
    slotStart: b.ticketSlot,
    slotEnd: b.ticketSlotEnd,
    lines: b.ticketTypes.map((l) => ({ name: l.name, quantity: l.quantity, pricePaise: l.pricePaise })),
    subtotalPaise: b.subtotalAmountPaise,
    discount: b.discountCode ? { code: b.discountCode, discountPaise: b.discountPaise } : null,
    addOns,
    bookingFeePaise: b.feeAmountPaise + b.igstAmountPaise,
    feeGstPaise: b.igstAmountPaise,
    // The mail names the fee's tax heads as its invoice does (issue 36).
    feeTaxSplit,
    totalPaise: b.totalAmountPaise,
    siteUrl: siteUrl(deps),
    supportEmail: deps.env.SUPPORT_EMAIL,
  });
  await runnerFor(deps.db).write((tx) =>
    enqueueMailSteps(
      tx as WriteTx,
      { ...mail, idempotencyKey: `booking-resent:${b.id}:${now.toISOString()}` },
      now,
    ),
  );
  return { sentTo: b.userEmail };
}
