import { eq } from 'drizzle-orm';
import { ticketSaleGstProblemMessage } from '../../../shared/gst-schemas.ts';
import { HOARDING_MESSAGES } from '../../../shared/hoarding-messages.ts';
import { IGST_RATE } from '../../../shared/pricing.ts';
import { WAITLIST_MESSAGES } from '../../../shared/waitlist-schemas.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { conflict, DomainError } from '../../errors.ts';
import { type CheckoutSession, checkoutSessionOf } from '../checkout/checkout-session.ts';
import { ticketSaleGstProblemSteps } from '../checkout/checkout-taxes.ts';
import { buildOrderNotes, buildReceipt } from '../checkout/order-request.ts';
import { ORDER_FAILED_MESSAGE } from '../checkout/start-checkout.ts';
import { ticketsCountedTowardsMaxSteps } from '../inventory/hoarding.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { paymentGatewayOf } from '../payments/gateway-of.ts';
import { admissionStateSteps, requireAdmission } from '../waiting-room/require-admitted-account.ts';
import { readOfferSteps } from './offer.ts';

/**
 * Pay on the offer page: opens a gateway order for the offer's existing hold (its server-computed
 * total), for the entry's own account, only while the offer is live and (with the event's waiting room
 * on) only for an account the room has admitted, and answers what the checkout
 * page needs to open the payment window. Pressing Pay again reuses the order (one order per hold), so a
 * dismissed window can be reopened. Confirmation is the ordinary one (payments.confirm, the webhook,
 * the reconciler), which turns the hold into a booking and the entry into 'booked'.
 */
export async function payOffer(deps: AppDeps, userId: string, entryId: string): Promise<CheckoutSession> {
  const gateway = paymentGatewayOf(deps);
  const { paymentOrders } = tablesOf(deps.db);
  const offer = await runStatements(deps.db, (db) => readOfferSteps(db, userId, entryId, deps.clock.now()));
  if (!offer.live || !offer.hold) throw conflict(WAITLIST_MESSAGES.offerOver);
  // As Proceed: while the waiting room is on, only an admitted account pays (an entry made while the
  // room was off, or switched on since, must not buy round the queue).
  requireAdmission(
    await runStatements(deps.db, (db) =>
      admissionStateSteps(db, offer.entry.eventId, userId, deps.clock.now()),
    ),
  );
  const hold = offer.hold;
  const session = (orderId: string): CheckoutSession =>
    checkoutSessionOf(
      hold,
      { gateway, orderId },
      {
        eventId: hold.eventId,
        eventName: offer.eventName,
        slotId: hold.slotId,
        lines: [
          {
            ticketTypeId: offer.entry.ticketTypeId,
            name: offer.ticketTypeName,
            quantity: offer.entry.quantity,
          },
        ],
        details: hold.details,
        // A waiting-list offer is priced without a discount code.
        discount: null,
        // The rate the hold was priced with: an offer made with fee GST charges it, one made without does not.
        feeTaxRatePercent: hold.igstPaise > 0 ? IGST_RATE : 0,
      },
    );
  const [existing] = await deps.db
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(eq(paymentOrders.holdId, hold.id));
  if (existing) return session(existing.id);

  const now = deps.clock.now();
  // As Proceed: no new sale with wrong GST, a rate the schedule no longer has or no venue state where the
  // city spans states (issue 36). An order already opened above may be under payment, and is paid and
  // invoiced as quoted.
  await runStatements(deps.db, function* (db) {
    const problem = yield* ticketSaleGstProblemSteps(db, hold.eventId, now);
    if (problem !== null) throw conflict(ticketSaleGstProblemMessage(problem, 'buyer'));
    yield* refuseOverPerBuyerMaxSteps(db, userId, hold);
  });
  const receipt = buildReceipt(hold.eventId, now);
  const notes = buildOrderNotes({
    eventId: hold.eventId,
    eventName: offer.eventName,
    slotId: hold.slotId,
    totalTickets: offer.entry.quantity,
    userEmail: hold.details.email,
    userName: hold.details.name,
  });
  let orderId: string;
  try {
    orderId = (await gateway.createOrder({ amountPaise: hold.totalPaise, currency: 'INR', receipt, notes }))
      .id;
  } catch (err) {
    deps.logger.error({ err, entryId }, 'payment order for a waiting-list offer could not be created');
    throw new DomainError('PRECONDITION_FAILED', ORDER_FAILED_MESSAGE);
  }
  // Written once for both engines (ADR 0045). Two Pays of one offer on PostgreSQL wait for each other
  // (the hold's key), so the second finds the first's order, as under SQLite's write lock.
  return runnerFor(deps.db).write(function* (tx) {
    const { paymentOrders } = tablesOf(tx);
    yield* serialize(`pay-offer:${hold.id}`);
    // The offer may have ended, or a second Pay opened its order, while the gateway was asked.
    const again = yield* readOfferSteps(tx, userId, entryId, deps.clock.now());
    if (!again.live) throw conflict(WAITLIST_MESSAGES.offerOver);
    const raced = yield* row(
      tx.select({ id: paymentOrders.id }).from(paymentOrders).where(eq(paymentOrders.holdId, hold.id)),
    );
    if (raced) return session(raced.id);
    yield* changes(
      tx.insert(paymentOrders).values({
        id: orderId,
        gateway: gateway.name,
        holdId: hold.id,
        userId,
        amountPaise: hold.totalPaise,
        currency: 'INR',
        receipt,
        notes,
        createdAt: now.toISOString(),
      }),
    );
    return session(orderId);
  });
}

/**
 * The organiser's per-buyer maximum, once more at Pay: each offer was checked when it was made, but two
 * offers made at once on two slots (each in its own slot's transaction, on two servers) can each have
 * counted without the other, and the organiser may have lowered the maximum since. Every other ticket
 * the account has for the event counts, its other offers' holds too, so of two offers that together go
 * over, the buyer pays one once they leave the other's list. Read before the gateway is asked, with no
 * lock: a Proceed or another Pay cannot change what it counts in a way that lets both through, since
 * every offer's hold exists before either Pay and a Proceed counts them too. An order opened before is
 * not refused again: it may be under payment.
 */
function* refuseOverPerBuyerMaxSteps(
  tx: DbOrTx,
  userId: string,
  hold: { eventId: string; seats: number },
): Steps<void> {
  const { events } = tablesOf(tx);
  const event = yield* row(
    tx.select({ max: events.maxTicketsPerBuyer }).from(events).where(eq(events.id, hold.eventId)),
  );
  const max = event?.max ?? null;
  if (max === null) return;
  const counted = yield* ticketsCountedTowardsMaxSteps(tx, userId, hold.eventId);
  // The message names what the account has besides this offer.
  if (counted > max) throw conflict(HOARDING_MESSAGES.perBuyerMax(max, counted - hold.seats));
}
