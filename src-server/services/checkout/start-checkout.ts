import { and, eq, sql } from 'drizzle-orm';
import type { StartCheckoutInput } from '../../../shared/checkout-schemas.ts';
import { ticketSaleGstProblemMessage } from '../../../shared/gst-schemas.ts';
import { HOARDING_MESSAGES } from '../../../shared/hoarding-messages.ts';
import { perOrderMaxProblem } from '../../../shared/per-order-max.ts';
import { checkoutPriceBreakdown } from '../../../shared/pricing.ts';
import type { CheckedAnswers } from '../../../shared/question-schemas.ts';
import { invoiceTaxableValuePaise, recipientAddressOf } from '../../../shared/recipient-address.ts';
import { saleWindowMessage } from '../../../shared/sale-window.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { isPostgres, readSnapshot } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { groupCommitOf } from '../../db/group-commit.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
import { textParam } from '../../db/unpeeked-params.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, conflict, DomainError, forbidden, notFound } from '../../errors.ts';
import { refuseLockedTypesSteps } from '../access-codes/hidden-types.ts';
import { quoteAddOnsSteps } from '../add-ons/add-on-stock.ts';
import { evaluateDiscountSteps } from '../discounts/discount-uses.ts';
import { checkHoardingSteps, type HoardingContext, hoardingLimitsOf } from '../inventory/hoarding.ts';
import {
  type Hold,
  type HoldRecord,
  quoteSeatsSteps,
  type ReserveInput,
  refuseProceedOverOfferSteps,
  replaceHoldsAndReserve,
  replaceHoldsAndReserveSteps,
  seatsOf,
} from '../inventory/holds.ts';
import { paymentGatewayOf } from '../payments/gateway-of.ts';
import {
  ASKS_OF_TYPE,
  checkCheckoutAnswersSteps,
  saveHoldAnswersSteps,
} from '../questions/checkout-answers.ts';
import { requireAdmissionSteps } from '../waiting-room/require-admission.ts';
import { type CheckoutSession, checkoutSessionOf } from './checkout-session.ts';
import { checkoutTaxesAndSaleProblemSteps } from './checkout-taxes.ts';
import { buildOrderNotes, buildReceipt } from './order-request.ts';

export const ORDER_FAILED_MESSAGE = 'Failed to create order. Please try again.';

/** Proceed on a slot the organiser cancelled (its seats are off sale too, so a race cannot hold one). */
export const SLOT_CANCELLED_MESSAGE = 'This show has been cancelled';

/**
 * Proceed: checks the selection against the catalogue, prices it on the server, opens a gateway order
 * for exactly that amount, then holds the seats and records the order in one transaction (the spec's
 * messages when not enough are left). The order comes first so the seats are never held while the
 * gateway is being asked, nothing needs giving back when it cannot open one, and a Proceed writes once
 * (docs/decisions/0004-payments-and-holds.md). That write, like the simulator's order, goes into a
 * group commit shared with the buyers who proceed in the same 2 ms (ADR 0010). An order whose seats are
 * taken by someone else in between is never paid, which costs nothing.
 *
 * Holding seats needs a verified e-mail address, and the hoarding rules (services/inventory/hoarding.ts,
 * ADR 0023) are checked before the order is opened and again under the write lock. An event with its
 * waiting room on needs an admission pass (services/waiting-room, ADR 0026).
 */
export async function startCheckout(
  deps: AppDeps,
  userId: string,
  input: StartCheckoutInput,
  clientAddress: string,
): Promise<CheckoutSession> {
  const { db } = deps;
  // Everything checked and priced before the gateway order, in one snapshot on either engine: on SQLite
  // one read transaction, synchronously, instead of a dozen reads each opening and closing its own
  // (db/one-read.ts; docs/benchmarks.md, issue 40's last bar).
  const checked = await readSnapshot(db, (db) => proceedChecksSteps(deps, db, userId, input, clientAddress));
  const { event, date, slot, quoted, hoarding, gateway, taxes, discount, answers, addOns, details } = checked;
  const { grandTotalPaise } = checked;

  const totalTickets = input.selectedTickets.reduce((sum, t) => sum + t.quantity, 0);
  const receipt = buildReceipt(event.id, deps.clock.now());
  const notes = buildOrderNotes({
    eventId: event.id,
    eventName: event.name,
    slotId: slot.id,
    totalTickets,
    userEmail: input.ticketDetails.email,
    userName: input.ticketDetails.name,
  });
  let orderId: string;
  try {
    const order = await gateway.createOrder({
      amountPaise: grandTotalPaise,
      currency: 'INR',
      receipt,
      notes,
    });
    orderId = order.id;
  } catch (err) {
    deps.logger.error({ err, eventId: event.id }, 'payment order could not be created');
    throw new DomainError('PRECONDITION_FAILED', ORDER_FAILED_MESSAGE);
  }

  // The payment session starts once the order exists: the gateway may have taken a while.
  const now = deps.clock.now();
  const reserve: ReserveInput = {
    userId,
    eventId: event.id,
    eventDateId: date.id,
    slotId: slot.id,
    lines: input.selectedTickets,
    details,
    userCity: input.userCity || null,
    platformFeeRate: event.platformFeeRate,
    taxes,
    hoarding,
    discountCode: input.discountCode,
    addOns: input.addOns,
  };
  // Inside the new hold's savepoint: the order row, and the buyer's answers with the hold.
  const recordOrder = (tx: DbOrTx): HoldRecord => ({
    check: (held) => checkOrderAmount(held, grandTotalPaise),
    write: (held) =>
      recordOrderSteps(tx, held, now, {
        id: orderId,
        gateway: gateway.name,
        userId,
        receipt,
        notes,
        answers,
      }),
  });
  const hold = isPostgres(db)
    ? await holdOnPostgres(db, reserve, now, recordOrder)
    : // SQLite: one synchronous transaction inside a group commit shared with the buyers who proceed
      // in the same 2 ms (ADR 0010), the flash sale's path, its statements counted by
      // proceed-statements.test.ts.
      await groupCommitOf(db.$client).write(() => replaceHoldsAndReserve(db, reserve, now, recordOrder(db)));

  return checkoutSessionOf(
    hold,
    { gateway, orderId },
    {
      eventId: event.id,
      eventName: event.name,
      slotId: slot.id,
      lines: quoted,
      details: input.ticketDetails,
      discount: discount && { code: discount.code, discountPaise: hold.discountPaise },
      addOnsPaise: addOns?.totalPaise ?? 0,
      feeTaxRatePercent: taxes.feeTaxRatePercent,
    },
  );
}

/**
 * Proceed's transaction on PostgreSQL: the same steps as SQLite's (`replaceHoldsAndReserveSteps`), as
 * one write transaction; a refusal after the release of the buyer's earlier hold is thrown once that
 * release has committed, as on SQLite.
 */
async function holdOnPostgres(
  db: Db,
  reserve: ReserveInput,
  now: Date,
  recordOrder: (tx: DbOrTx) => HoldRecord,
): Promise<Hold> {
  const outcome = await runnerFor(db).write((tx) =>
    replaceHoldsAndReserveSteps(tx, reserve, now, recordOrder(tx)),
  );
  if (!outcome.ok) throw outcome.refused;
  return outcome.hold;
}

/**
 * A price changed while the order was being opened: its amount is no longer the hold's, and the hold
 * is undone (asked once the seats are taken, so a sold-out type is still what the buyer hears first).
 */
function checkOrderAmount(held: Hold, expectedPaise: number): void {
  if (held.totalPaise !== expectedPaise) {
    throw new DomainError('PRECONDITION_FAILED', ORDER_FAILED_MESSAGE);
  }
}

/**
 * The payment order's row, in the new hold's savepoint, and the buyer's checked answers with the hold:
 * no hot row, so written before the seats are taken when the hold allows (inventory/holds.ts).
 */
function* recordOrderSteps(
  tx: DbOrTx,
  held: Hold,
  now: Date,
  order: {
    id: string;
    gateway: string;
    userId: string;
    receipt: string;
    notes: Record<string, string>;
    answers: CheckedAnswers;
  },
): Steps<void> {
  yield* changes(query(tx, 'insertPaymentOrder'), {
    id: order.id,
    gateway: order.gateway,
    holdId: held.id,
    userId: order.userId,
    amountPaise: held.totalPaise,
    currency: 'INR',
    receipt: order.receipt,
    notes: order.notes,
    createdAt: now.toISOString(),
  });
  yield* saveHoldAnswersSteps(tx, held.id, order.answers, now);
}

/**
 * Proceed's checks before the gateway order, written once for both engines (ADR 0045): the buyer, the
 * event and its waiting room, the date, slot and types, the hidden types, sale windows, seats (advisory,
 * the hold decides), hoarding, a waiting-list offer, the gateway, taxes, the code, the answers and the
 * add-ons, then the price. Refusals throw the buyer's message; nothing is written.
 */
function* proceedChecksSteps(
  deps: AppDeps,
  db: DbOrTx,
  userId: string,
  input: StartCheckoutInput,
  clientAddress: string,
) {
  // Free accounts cost a hoarder nothing; verified ones cost a mailbox each (Google's are verified).
  if (!(yield* row(query(db, 'verified'), { userId }))?.verified) {
    throw forbidden(HOARDING_MESSAGES.emailNotVerified);
  }
  const event = yield* row(query(db, 'event'), { eventId: input.eventId });
  if (!event) throw notFound('Event not found');
  // An event with its waiting room on: not before the on-sale time, then only with an admission pass.
  yield* requireAdmissionSteps(
    db,
    { appSecret: deps.appSecret, now: deps.clock.now() },
    event.id,
    userId,
    input.admissionPass,
    {
      room:
        event.roomOpensAt === null
          ? undefined
          : { enabled: Boolean(event.roomEnabled), opensAt: event.roomOpensAt },
    },
  );
  const date = yield* row(query(db, 'date'), { dateId: input.selectedDate, eventId: event.id });
  if (!date?.isLive) throw notFound('Selected date not found in event');
  const slot = yield* row(query(db, 'slot'), { slotId: input.selectedSlot, dateId: date.id });
  if (!slot) throw notFound('Selected slot not found in event');
  if (slot.cancelledAt) throw conflict(SLOT_CANCELLED_MESSAGE);
  // One read per type serves the checks below that ask about the type itself.
  const lines: ((typeof input.selectedTickets)[number] & { type: TypeToCheck | undefined })[] = [];
  for (const line of input.selectedTickets) {
    lines.push({ ...line, type: yield* row(query(db, 'typeToCheck'), { ticketTypeId: line.ticketTypeId }) });
  }
  // Before any check that names a type: a hidden one without its access code is not there (ADR 0038).
  yield* refuseLockedTypesSteps(
    db,
    {
      eventId: event.id,
      code: input.discountCode,
      lines: lines.map((l) => ({ ticketTypeId: l.ticketTypeId, isHidden: Boolean(l.type?.isHidden) })),
    },
    deps.clock.now(),
  );
  checkSaleWindows(lines, deps.clock.now());
  const quoted = yield* quoteSeatsSteps(db, { userId, slotId: slot.id, lines: input.selectedTickets });
  const hoarding: HoardingContext = {
    limits: hoardingLimitsOf(deps.env),
    clientAddress,
    maxTicketsPerBuyer: event.maxTicketsPerBuyer,
  };
  const seats = seatsOf(input.selectedTickets);
  const { activeOnSlot } = yield* checkHoardingSteps(
    db,
    hoarding,
    { userId, eventId: event.id, slotId: slot.id, seats },
    deps.clock.now(),
  );
  // Spares the gateway an order the hold would refuse (checked again there, under the write lock).
  yield* refuseProceedOverOfferSteps(db, userId, slot.id, activeOnSlot);

  // Before any order or seat: a site that cannot take payments must not open orders or hold seats.
  const gateway = paymentGatewayOf(deps);
  const { taxes, saleGstProblem } = yield* checkoutTaxesAndSaleProblemSteps(
    db,
    deps.env,
    event.id,
    deps.clock.now(),
  );
  // No new invoice with wrong GST (issue 36): a rate the schedule no longer has, or an unknown place of
  // supply (a city spanning states, no venue state); no sale until the organiser fixes it. A hold taken
  // before is still paid and invoiced.
  if (saleGstProblem !== null) {
    throw conflict(ticketSaleGstProblemMessage(saleGstProblem, 'buyer'));
  }
  // The code is checked here so a refused one opens no gateway order; its use is taken with the hold.
  const discount = input.discountCode
    ? yield* evaluateDiscountSteps(
        db,
        { eventId: event.id, slotId: slot.id, userId, code: input.discountCode, lines: quoted },
        deps.clock.now(),
      )
    : null;
  // Nothing is read when no type asks (`asks`, read with the type).
  const answers = yield* checkCheckoutAnswersSteps(
    db,
    lines.map(({ type, ...line }) => ({ ...line, asks: Boolean(type?.asks) })),
    input.answers,
  );
  const discounted = quoted.map((line) => ({
    ...line,
    discountPerTicketPaise: discount?.perTicket.get(line.ticketTypeId) ?? 0,
  }));
  const amounts = checkoutPriceBreakdown(discounted, event.platformFeeRate, taxes);
  const addOns = input.addOns?.length
    ? yield* quoteAddOnsSteps(db, {
        eventId: event.id,
        ticketTypeIds: quoted.map((l) => l.ticketTypeId),
        selection: input.addOns,
        taxes,
      })
    : null;
  const grandTotalPaise = amounts.grandTotalPaise + (addOns?.totalPaise ?? 0);
  // The GST invoice must show the billing address for a registered buyer or a taxable value of ₹50,000
  // or more (Rule 46(f)): decided now that the order is priced, on the invoice's own arithmetic; kept
  // only then.
  const address = recipientAddressOf(
    {
      buyerGstin: input.ticketDetails.buyerGstin,
      taxableValuePaise: invoiceTaxableValuePaise(discounted, addOns?.lines ?? [], taxes),
    },
    input.ticketDetails.buyerAddress,
  );
  if (!address.ok) throw badRequest(address.message, { buyerAddress: address.message });
  const details = { ...input.ticketDetails, buyerAddress: address.address ?? undefined };
  return {
    event,
    date,
    slot,
    quoted,
    hoarding,
    gateway,
    taxes,
    discount,
    answers,
    addOns,
    details,
    grandTotalPaise,
  };
}

/**
 * A ticket type outside its sale window cannot be held ('Sale opens …' / 'Sales closed', as the page
 * shows), nor more of it than its per-order maximum. Unknown ids are left to the reservation's checks.
 */
function checkSaleWindows(lines: { quantity: number; type: TypeToCheck | undefined }[], now: Date): void {
  for (const { type, ...line } of lines) {
    if (!type) continue;
    const closed = saleWindowMessage(type, now);
    if (closed) throw conflict(`${type.name}: ${closed}`);
    const tooMany = perOrderMaxProblem(type, line.quantity);
    if (tooMany) throw badRequest(tooMany);
  }
}

/**
 * The catalogue checks of Proceed and its payment-order row, built and compiled once per database (and
 * per PostgreSQL transaction): building a Drizzle query cost several times more than running it, on the
 * path every buyer of a rush takes (docs/benchmarks.md).
 */
const p = sql.placeholder;
const builders = {
  verified: (db: DbOrTx) => {
    const { users } = tablesOf(db);
    return db
      .select({ verified: users.isEmailVerified })
      .from(users)
      .where(eq(users.id, p('userId')))
      .prepare();
  },
  // With the event, its waiting room's switch (ADR 0026), read fresh as requireAdmission would: one
  // statement fewer on every Proceed. A join: its id cast and its status a literal, or SQLite would
  // prepare it again on every binding (db/unpeeked-params.ts).
  event: (db: DbOrTx) => {
    const { events, waitingRooms } = tablesOf(db);
    return (
      db
        .select({
          id: events.id,
          name: events.name,
          platformFeeRate: events.platformFeeRate,
          maxTicketsPerBuyer: events.maxTicketsPerBuyer,
          roomEnabled: waitingRooms.enabled,
          roomOpensAt: waitingRooms.opensAt,
        })
        .from(events)
        .leftJoin(waitingRooms, eq(waitingRooms.eventId, events.id))
        // Drafts and cancelled events cannot be bought, whatever the client sends.
        .where(and(eq(events.id, textParam('eventId')), sql`${events.status} = 'published'`))
        .prepare()
    );
  },
  // What Proceed checks of a type before the order: hidden (ADR 0038), its sale window, whether it
  // asks questions (ADR 0040). Its seats and price are quoteSeats' (inventory/holds.ts).
  typeToCheck: (db: DbOrTx) => {
    const { ticketTypes } = tablesOf(db);
    return db
      .select({
        name: ticketTypes.name,
        maxPerOrder: ticketTypes.maxPerOrder,
        saleOpensAt: ticketTypes.saleOpensAt,
        saleClosesAt: ticketTypes.saleClosesAt,
        isHidden: ticketTypes.isHidden,
        asks: ASKS_OF_TYPE,
      })
      .from(ticketTypes)
      .where(eq(ticketTypes.id, p('ticketTypeId')))
      .prepare();
  },
  date: (db: DbOrTx) => {
    const { eventDates } = tablesOf(db);
    return db
      .select({ id: eventDates.id, isLive: eventDates.isLive })
      .from(eventDates)
      .where(and(eq(eventDates.id, p('dateId')), eq(eventDates.eventId, p('eventId'))))
      .prepare();
  },
  slot: (db: DbOrTx) => {
    const { slots } = tablesOf(db);
    return db
      .select({ id: slots.id, cancelledAt: slots.cancelledAt })
      .from(slots)
      .where(and(eq(slots.id, p('slotId')), eq(slots.eventDateId, p('dateId'))))
      .prepare();
  },
  insertPaymentOrder: (db: DbOrTx) => {
    const { paymentOrders } = tablesOf(db);
    return db
      .insert(paymentOrders)
      .values({
        id: p('id'),
        gateway: p('gateway'),
        holdId: p('holdId'),
        userId: p('userId'),
        amountPaise: p('amountPaise'),
        currency: p('currency'),
        receipt: p('receipt'),
        notes: p('notes'),
        createdAt: p('createdAt'),
      })
      .prepare();
  },
};

const query = preparedQueries(builders);

type TypeToCheck = NonNullable<ReturnType<ReturnType<typeof builders.typeToCheck>['get']>>;
