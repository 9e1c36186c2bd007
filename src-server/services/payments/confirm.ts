import { and, asc, eq } from 'drizzle-orm';
import type { ConfirmPaymentInput } from '../../../shared/checkout-schemas.ts';
import type { BookedTicketType } from '../../../shared/ticket-type.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, runSync, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { BookedTicketLine } from '../../db/schema/bookings.ts';
import type { holds } from '../../db/schema/payments.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, notFound } from '../../errors.ts';
import { pooledRandomBytes } from '../../pooled-random.ts';
import { bookAddOnsSteps } from '../add-ons/add-on-stock.ts';
import { addOnsOfBookingsSteps } from '../add-ons/booking-add-ons.ts';
import { issueAttendeeTicketsSteps } from '../attendee-tickets/issue-attendee-tickets.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { type DbOrTx, releaseHoldSteps, retakeHeldSeatsOrNotSteps } from '../inventory/holds.ts';
import { feeTaxSplitOfBookingSteps } from '../invoices/fee-tax-split.ts';
import { issueBookingInvoicesSteps } from '../invoices/issue-booking-invoices.ts';
import { platformGstOf } from '../invoices/platform-gst.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { siteUrl } from '../mail/site-url.ts';
import { attachAnswersSteps } from '../questions/checkout-answers.ts';
import { issueRefund } from '../refunds/issue-refund.ts';
import { queueRefundSteps } from '../refunds/queue-refund.ts';
import { signTicketToken } from '../tickets/ticket-token.ts';
import { markOfferBookedSteps } from '../waitlist/pass-on.ts';
import { bookingConfirmedMail, paymentRefundedMail } from './booking-mail.ts';
import type { GatewayPayment } from './gateway.ts';
import { paymentGatewayOf } from './gateway-of.ts';

/** Spec §8 Post-payment: shown when a returned payment cannot be verified or completed. */
export const BOOKING_FAILED_MESSAGE = 'Failed to complete booking. Please contact support.';
/** Shown on screen (and mailed) when a verified payment came too late for its seats and was refunded. */
export const LATE_PAYMENT_REFUNDED_MESSAGE =
  'The tickets sold out before your payment completed, so no booking was made. Your payment is being refunded in full.';

export type ConfirmSource = 'callback' | 'webhook' | 'reconciler';

export type PaymentOutcome =
  | { outcome: 'booked'; bookingId: string }
  | { outcome: 'refunded'; paymentId: string; amountPaise: number; message: string };

/**
 * The browser's success callback: the signature must be the gateway's HMAC over the order id the
 * server stored for this buyer and the returned payment id. Then the one idempotent settlement.
 */
export async function confirmCheckoutPayment(
  deps: AppDeps,
  userId: string,
  input: ConfirmPaymentInput,
): Promise<PaymentOutcome> {
  const order = await runStatements(deps.db, (db) => {
    const { paymentOrders } = tablesOf(db);
    return row(
      db
        .select({ id: paymentOrders.id, amountPaise: paymentOrders.amountPaise })
        .from(paymentOrders)
        .where(and(eq(paymentOrders.id, input.orderId), eq(paymentOrders.userId, userId))),
    );
  });
  if (!order) throw notFound('Checkout data is missing');
  const verified = paymentGatewayOf(deps).verifyPaymentSignature({
    orderId: order.id,
    paymentId: input.paymentId,
    signature: input.signature,
  });
  if (!verified) {
    deps.logger.warn({ orderId: order.id, paymentId: input.paymentId }, 'payment signature did not verify');
    throw badRequest(BOOKING_FAILED_MESSAGE);
  }
  return settlePayment(deps, order.id, input.paymentId, {
    amountPaise: order.amountPaise,
    source: 'callback',
  });
}

/**
 * A captured payment reported by the gateway itself (a verified webhook or the reconciler's fetch).
 * Returns null for a payment on an order this app did not open (e.g. the /temp-checkout test page).
 */
export async function settleGatewayPayment(
  deps: AppDeps,
  payment: Pick<GatewayPayment, 'id' | 'orderId' | 'amountPaise' | 'currency'>,
  source: Exclude<ConfirmSource, 'callback'>,
): Promise<PaymentOutcome | null> {
  const order = await runStatements(deps.db, (db) => {
    const { paymentOrders } = tablesOf(db);
    return row(
      db
        .select({
          id: paymentOrders.id,
          amountPaise: paymentOrders.amountPaise,
          currency: paymentOrders.currency,
        })
        .from(paymentOrders)
        .where(eq(paymentOrders.id, payment.orderId)),
    );
  });
  if (!order) return null;
  const matches = payment.amountPaise === order.amountPaise && payment.currency === order.currency;
  if (!matches) deps.logger.error({ payment, order }, 'captured amount differs from the order: refunding');
  return settlePayment(deps, order.id, payment.id, {
    amountPaise: payment.amountPaise,
    source,
    refundReason: matches ? undefined : 'amount_mismatch',
  });
}

/**
 * The one idempotent confirmation shared by the callback, the webhook and the reconciler. In one
 * BEGIN IMMEDIATE transaction it either finds this payment's booking or refund (a repeat), or turns
 * the hold into a booking (re-taking released seats if they are still there), or records a refund.
 * `bookings.payment_id` and `refunds.payment_id` are unique, so a payment ends as exactly one of them.
 */
export async function settlePayment(
  deps: AppDeps,
  orderId: string,
  paymentId: string,
  options: { amountPaise: number; source: ConfirmSource; refundReason?: string },
): Promise<PaymentOutcome> {
  const now = deps.clock.now();
  const result = await runnerFor(deps.db).write((tx) =>
    confirmPaymentSteps(deps, tx, { orderId, paymentId, ...options }, now),
  );
  if (result.outcome === 'refunded' && 'refundId' in result && result.refundId) {
    await issueRefund(deps, result.refundId);
    const { refundId: _issued, ...outcome } = result;
    return outcome;
  }
  return result;
}

/** What a confirmation needs of the app besides its transaction: no database, no network. */
export type ConfirmDeps = Pick<AppDeps, 'env' | 'logger' | 'appSecret'>;

export interface ConfirmRequest {
  orderId: string;
  paymentId: string;
  amountPaise: number;
  source: ConfirmSource;
  refundReason?: string;
}

/** A settlement's outcome; a refund to make carries its id, for the gateway call after commit. */
export type Settlement = PaymentOutcome & { refundId?: string };

/**
 * The order (one per hold: `payment_orders.hold_id` is unique) every confirmation of it serialises on:
 * the callback, the webhook and the reconciler reporting one payment at once, or two payments on one
 * order, take turns on PostgreSQL, and each after the first finds the booking or refund the first made.
 */
export function confirmationLockKey(orderId: string): string {
  return `payment-order:${orderId}`;
}

/**
 * `settlePayment`'s transaction written once for both engines (ADR 0045). The hold becomes a booking by
 * a conditional UPDATE on its status as read, so a release racing on PostgreSQL (the sweeper, which
 * takes no lock of ours) either comes first, and the payment then re-takes the seats as a late one
 * does, or finds the hold converted and gives nothing back.
 */
export function* confirmPaymentSteps(
  deps: ConfirmDeps,
  tx: DbOrTx,
  request: ConfirmRequest,
  now: Date,
): Steps<Settlement> {
  const { bookings, events, holds, paymentOrders, refunds } = tablesOf(tx);
  const { orderId, paymentId } = request;
  yield* serialize(confirmationLockKey(orderId));
  const booked = yield* row(
    tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.paymentId, paymentId)),
  );
  if (booked) return { outcome: 'booked', bookingId: booked.id };
  const refunded = yield* row(tx.select().from(refunds).where(eq(refunds.paymentId, paymentId)));
  if (refunded) return refundOutcome(paymentId, refunded.amountPaise);

  const order = yield* row(tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)));
  if (!order) throw notFound('Checkout data is missing');
  const readHold = () => row(tx.select().from(holds).where(eq(holds.id, order.holdId)));
  let hold = yield* readHold();
  if (!hold) throw notFound('Booking data is missing. Please try again.');

  let reason = request.refundReason;
  if (!reason && (yield* isCancelledSteps(tx, hold.slotId))) {
    // The slot or its event was cancelled while this buyer paid: no booking, the money goes back.
    yield* releaseHoldSteps(tx, hold.id, 'slot_cancelled', now);
    reason = 'slot_cancelled';
  }
  if (!reason) {
    if (hold.status === 'active') {
      const created = yield* createBookingSteps(deps, tx, hold, order.id, paymentId, now);
      if (created) return created;
      // Released between the read and the claim (PostgreSQL only): a late payment now.
      hold = (yield* readHold())!;
    }
    if (hold.status === 'released' && (yield* retakeHeldSeatsOrNotSteps(tx, hold.id))) {
      deps.logger.info({ holdId: hold.id, paymentId }, 'late payment: released seats taken again');
      const created = yield* createBookingSteps(deps, tx, hold, order.id, paymentId, now);
      // Nothing but a confirmation, which holds this order's lock, moves a released hold.
      if (!created) throw new Error(`hold ${hold.id} changed under its confirmation's lock`);
      return created;
    }
    // Released and gone, or converted by another payment on the same order.
    reason = hold.status === 'converted' ? 'duplicate_payment' : 'seats_unavailable';
  }
  const refundId = yield* queueRefundSteps(
    tx as WriteTx,
    { paymentId, orderId: order.id, userId: hold.userId, amountPaise: request.amountPaise, reason },
    now,
  );
  if (hold.status !== 'converted') {
    yield* changes(
      tx.update(paymentOrders).set({ status: 'refunded' }).where(eq(paymentOrders.id, order.id)),
    );
  }
  const event = yield* row(tx.select({ name: events.name }).from(events).where(eq(events.id, hold.eventId)));
  yield* enqueueMailSteps(
    tx as WriteTx,
    paymentRefundedMail({
      paymentId,
      userName: hold.details.name,
      userEmail: hold.details.email,
      eventName: event?.name ?? 'your event',
      amountPaise: request.amountPaise,
      supportEmail: deps.env.SUPPORT_EMAIL,
      cancelled: reason === 'slot_cancelled',
    }),
    now,
  );
  deps.logger.warn(
    { paymentId, orderId: order.id, reason, source: request.source },
    'payment will be refunded',
  );
  return { ...refundOutcome(paymentId, request.amountPaise), refundId: refundId ?? undefined };
}

/** Whether the slot, or the event it belongs to, was cancelled. */
function* isCancelledSteps(tx: DbOrTx, slotId: string): Steps<boolean> {
  const { eventDates, events, slots } = tablesOf(tx);
  const found = yield* row(
    tx
      .select({ slotCancelledAt: slots.cancelledAt, eventStatus: events.status })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .innerJoin(events, eq(events.id, eventDates.eventId))
      .where(eq(slots.id, slotId)),
  );
  return Boolean(found && (found.slotCancelledAt || found.eventStatus === 'cancelled'));
}

function refundOutcome(paymentId: string, amountPaise: number): PaymentOutcome {
  return { outcome: 'refunded', paymentId, amountPaise, message: LATE_PAYMENT_REFUNDED_MESSAGE };
}

/**
 * The box office's confirmation (services/box-office, ADR 0042): its hold becomes a booking here, with
 * the same tickets, QR, mail, invoice and history as an online sale's. `paymentId` and `orderId` name
 * the sale (no gateway order exists); a comp has no invoice (`invoice: false`).
 */
export function confirmBoxOfficeHoldIn(
  deps: ConfirmDeps,
  tx: DbOrTx,
  holdId: string,
  sale: BoxOfficeConfirmation,
  now: Date,
): string {
  return runSync(confirmBoxOfficeHoldSteps(deps, tx, holdId, sale, now));
}

type BoxOfficeConfirmation = {
  orderId: string;
  paymentId: string;
  invoice: boolean;
  actorUserId: string;
  tokenInLink: boolean;
};

/** `confirmBoxOfficeHoldIn` written once for both engines (ADR 0045): the box office's sale runs it. */
export function* confirmBoxOfficeHoldSteps(
  deps: ConfirmDeps,
  tx: DbOrTx,
  holdId: string,
  sale: BoxOfficeConfirmation,
  now: Date,
): Steps<string> {
  const { holds } = tablesOf(tx);
  const hold = yield* row(tx.select().from(holds).where(eq(holds.id, holdId)));
  if (!hold) throw notFound('Booking data is missing. Please try again.');
  const booked = yield* createBookingSteps(deps, tx, hold, sale.orderId, sale.paymentId, now, sale);
  if (!booked) throw notFound('Booking data is missing. Please try again.');
  return booked.bookingId;
}

type HoldRow = typeof holds.$inferSelect;

/**
 * Writes the booking with every §3 field, records it on the user, marks the hold sold and queues the
 * mail. The hold is claimed first, by a conditional UPDATE on the status it was read with: null when
 * it had changed since (only on PostgreSQL, where a release may come in between), having written nothing.
 */
function* createBookingSteps(
  deps: ConfirmDeps,
  tx: DbOrTx,
  hold: HoldRow,
  orderId: string,
  paymentId: string,
  now: Date,
  boxOffice?: { invoice: boolean; actorUserId: string; tokenInLink: boolean },
): Steps<{ outcome: 'booked'; bookingId: string } | null> {
  const {
    bookings,
    discountCodes,
    eventDates,
    events,
    holdItems,
    holds,
    paymentOrders,
    slots,
    ticketTypes,
    users,
  } = tablesOf(tx);
  const claimed = yield* changes(
    tx
      .update(holds)
      .set({ status: 'converted', endedAt: now.toISOString() })
      .where(and(eq(holds.id, hold.id), eq(holds.status, hold.status))),
  );
  if (claimed !== 1) return null;
  const event = yield* row(
    tx
      .select({ id: events.id, name: events.name, location: events.eventLocationText })
      .from(events)
      .where(eq(events.id, hold.eventId)),
  );
  const date = yield* row(tx.select().from(eventDates).where(eq(eventDates.id, hold.eventDateId)));
  const slot = yield* row(tx.select().from(slots).where(eq(slots.id, hold.slotId)));
  if (!event || !date || !slot) throw notFound('Event not found');
  const items = yield* rows(
    tx
      .select({
        quantity: holdItems.quantity,
        heldPrice: holdItems.pricePaise,
        discountPerTicketPaise: holdItems.discountPaise,
        id: ticketTypes.id,
        name: ticketTypes.name,
        personAllowedPerTicket: ticketTypes.personAllowedPerTicket,
        description: ticketTypes.description,
        isRefundable: ticketTypes.isRefundable,
        totalTickets: ticketTypes.totalTickets,
        availableTickets: ticketTypes.availableTickets,
        isLive: ticketTypes.isLive,
      })
      .from(holdItems)
      .innerJoin(ticketTypes, eq(ticketTypes.id, holdItems.ticketTypeId))
      .where(eq(holdItems.holdId, hold.id))
      .orderBy(asc(holdItems.position)),
  );
  const first = items[0];
  if (!first) throw notFound('Booking data is missing. Please try again.');

  const ticketType: BookedTicketType = {
    id: first.id,
    name: first.name,
    pricePaise: first.heldPrice,
    personAllowedPerTicket: first.personAllowedPerTicket,
    description: first.description,
    isRefundable: first.isRefundable,
    totalTickets: first.totalTickets,
    availableTickets: first.availableTickets,
    isLive: first.isLive,
  };
  const lines: BookedTicketLine[] = items.map((item) => ({
    id: item.id,
    name: item.name,
    pricePaise: item.heldPrice,
    quantity: item.quantity,
    personAllowedPerTicket: item.personAllowedPerTicket,
    totalPersons: item.quantity * item.personAllowedPerTicket,
    // Only on discounted lines: a booking without a code stores what it always did.
    ...(item.discountPerTicketPaise > 0 ? { discountPerTicketPaise: item.discountPerTicketPaise } : {}),
  }));
  // The code's use is on the hold's own row (issue 40); only its text is read, and only with a code.
  const code = hold.discountCodeId
    ? yield* row(
        tx
          .select({ code: discountCodes.code })
          .from(discountCodes)
          .where(eq(discountCodes.id, hold.discountCodeId)),
      )
    : undefined;
  const discount = code && { code: code.code, discountPaise: hold.discountPaise ?? 0 };
  const bookingId = newBookingId();
  yield* changes(
    tx.insert(bookings).values({
      id: bookingId,
      paymentId,
      orderId,
      eventId: event.id,
      slotId: slot.id,
      ticketDate: date.dateOfEvent,
      ticketSlot: slot.startTime,
      ticketSlotEnd: slot.endTime,
      ticketType,
      ticketTypes: lines,
      ticketCount: lines.reduce((sum, l) => sum + l.quantity, 0),
      userId: hold.userId,
      userName: hold.details.name,
      userPhone: hold.details.phone,
      userEmail: hold.details.email,
      userState: hold.details.state,
      userCity: hold.userCity,
      eventName: event.name,
      eventLocation: event.location,
      subtotalAmountPaise: hold.subtotalPaise,
      feeAmountPaise: hold.feePaise,
      igstAmountPaise: hold.igstPaise,
      totalAmountPaise: hold.totalPaise,
      discountCode: discount?.code ?? null,
      discountPaise: discount?.discountPaise ?? 0,
      // What the checkout quoted: the admission invoice below is computed from it (ADR 0033).
      admissionTaxRatePercent: hold.admissionTaxRatePercent,
      admissionExemptionApplies: hold.admissionExemptionApplies,
      status: 'confirmed',
      isCheckIn: false,
      totalUserAllowed: lines.reduce((sum, l) => sum + l.totalPersons, 0),
      numberOfUserCheckedIn: 0,
      createdAt: now.toISOString(),
    }),
  );
  yield* attachAnswersSteps(tx, hold.id, bookingId);
  yield* issueAttendeeTicketsSteps(tx, { id: bookingId, slotId: slot.id, lines });
  yield* recordBookingEventSteps(tx, {
    bookingId,
    kind: 'confirmed',
    actor: boxOffice ? 'organiser' : 'buyer',
    actorUserId: boxOffice?.actorUserId ?? hold.userId,
    at: now,
    // The code applied at checkout is part of how the booking was made (issue 40: "code applied").
    details: {
      totalPaise: hold.totalPaise,
      ...(discount ? { discountCode: discount.code, discountPaise: discount.discountPaise } : {}),
    },
  });
  yield* bookAddOnsSteps(tx, hold.id, bookingId);
  // The GST invoice is numbered in this transaction: a booking and its invoice exist together or not at all.
  if (boxOffice?.invoice !== false)
    yield* issueBookingInvoicesSteps(tx, platformGstOf(deps.env), bookingId, hold.details, now);
  const user = yield* row(
    tx.select({ list: users.bookingIdsList }).from(users).where(eq(users.id, hold.userId)),
  );
  yield* changes(
    tx
      .update(users)
      .set({ bookingIdsList: [...(user?.list ?? []), bookingId], updatedAt: now.toISOString() })
      .where(eq(users.id, hold.userId)),
  );
  yield* changes(tx.update(paymentOrders).set({ status: 'paid' }).where(eq(paymentOrders.id, orderId)));
  // A waiting-list offer's hold: the entry is done.
  yield* markOfferBookedSteps(tx, hold.id, now);
  const addOns = yield* addOnsOfBookingsSteps(tx, [bookingId]);
  const feeTaxSplit = yield* feeTaxSplitOfBookingSteps(tx, bookingId);
  yield* enqueueMailSteps(
    tx as WriteTx,
    bookingConfirmedMail({
      bookingId,
      userName: hold.details.name,
      userEmail: hold.details.email,
      eventName: event.name,
      venue: event.location,
      slotStart: slot.startTime,
      slotEnd: slot.endTime,
      lines: lines.map((l) => ({ name: l.name, quantity: l.quantity, pricePaise: l.pricePaise })),
      subtotalPaise: hold.subtotalPaise,
      discount: discount ?? null,
      addOns: addOns.get(bookingId),
      bookingFeePaise: hold.feePaise + hold.igstPaise,
      feeGstPaise: hold.igstPaise,
      // The mail names the fee's tax heads as its invoice does (issue 36).
      feeTaxSplit,
      totalPaise: hold.totalPaise,
      siteUrl: siteUrl(deps),
      supportEmail: deps.env.SUPPORT_EMAIL,
      ticketToken: boxOffice?.tokenInLink ? signTicketToken(deps.appSecret, bookingId) : undefined,
    }),
    now,
  );
  return { outcome: 'booked', bookingId };
}

const BOOKING_ID_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** 'JB' and 10 characters without look-alikes (0/O, 1/I): easy to read out at a gate or to support. */
function newBookingId(): string {
  let id = 'JB';
  for (const b of pooledRandomBytes(10)) id += BOOKING_ID_ALPHABET[b % BOOKING_ID_ALPHABET.length];
  return id;
}
