import { and, asc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { SelectedAddOn } from '../../../shared/add-on-schemas.ts';
import type { TicketDetails } from '../../../shared/checkout-schemas.ts';
import { perOrderMaxProblem } from '../../../shared/per-order-max.ts';
import {
  type CheckoutTaxes,
  checkoutPriceBreakdown,
  DEFAULT_CHECKOUT_TAXES,
} from '../../../shared/pricing.ts';
import { WAITLIST_MESSAGES } from '../../../shared/waitlist-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { isPostgres } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, runSync, type Steps, savepoint, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
import { timeOrderedUuid } from '../../db/time-ordered-id.ts';
import { transactionOf } from '../../db/transaction-of.ts';
import { conflict, DomainError, notFound } from '../../errors.ts';
import { refuseLockedTypesSteps } from '../access-codes/hidden-types.ts';
import {
  type AddOnSale,
  recordHoldAddOnsSteps,
  retakeHoldAddOnsSteps,
  returnHoldAddOnsSteps,
  takeAddOnsSteps,
} from '../add-ons/add-on-stock.ts';
import {
  type AppliedDiscount,
  discountColumnsOf,
  retakeDiscountUseSteps,
  returnDiscountUseSteps,
  takeDiscountUseSteps,
} from '../discounts/discount-uses.ts';
import {
  QUOTA_LEFT_OF_TYPE,
  quotaIdsOfType,
  returnQuotaSeatsSteps,
  takeQuotaSeatsSteps,
} from '../quotas/quota-seats.ts';
import { checkHoardingSteps, type HoardingContext, type HoldWindow, hoardingLockKeys } from './hoarding.ts';
import { PAYMENT_SESSION_MS } from './payment-session.ts';

// The database or an open transaction: every helper here runs inside the caller's transaction.
export type { DbOrTx } from '../../db/client.ts';

export { PAYMENT_SESSION_MS } from './payment-session.ts';
/** How long a hold outlives the session, so a payment completed at the last second can still be verified. */
export const HOLD_GRACE_MS = 120_000;

export interface HoldLine {
  ticketTypeId: string;
  quantity: number;
}

export interface ReserveInput {
  userId: string;
  eventId: string;
  eventDateId: string;
  slotId: string;
  lines: HoldLine[];
  details: TicketDetails;
  userCity: string | null;
  platformFeeRate: number | null;
  /** How the event is taxed (checkout/checkout-taxes.ts); without it, today's 18 % on the fee only. */
  taxes?: CheckoutTaxes;
  /**
   * Proceed's hoarding rules (services/inventory/hoarding.ts), checked under the write lock. Without
   * it (the inventory's own tests and benchmarks) only the seats are checked.
   */
  hoarding?: HoardingContext;
  /** The buyer's discount code (issue 40): checked and one use taken in the hold's transaction. */
  discountCode?: string;
  /** An organiser's own sale (a comp, the door) may hold hidden types without an access code. */
  sellsHiddenTypes?: boolean;
  /** A complimentary booking's seats (services/box-office): taken like any others, priced at ₹0. */
  complimentary?: boolean;
  /** Add-ons sold with the tickets (ADR 0041): their stock is taken in the hold's transaction. */
  addOns?: SelectedAddOn[];
}

export interface Hold {
  id: string;
  /** What a discount code took off the tickets, before tax (0: none); `subtotalPaise` is after it. */
  discountPaise: number;
  subtotalPaise: number;
  feePaise: number;
  igstPaise: number;
  totalPaise: number;
  sessionExpiresAt: string;
  expiresAt: string;
}

/**
 * Takes the seats at Proceed, before any payment, in one BEGIN IMMEDIATE transaction: one conditional
 * UPDATE per ticket type (never below zero, only while live) and a hold only if every one changed a
 * row. The caller has already checked that the ticket types belong to the slot.
 */
export function reserveSeats(db: Db, input: ReserveInput, now: Date): Hold {
  return immediateTransaction(db, () => reserveIn(db, input, now));
}

/**
 * Proceed's one write transaction: releases the buyer's other active holds on the slot (a new Proceed
 * replaces an abandoned attempt, and its seats count for the new one), takes the new seats and, with
 * `recordOrder`, writes the payment order in the same transaction (it may throw to undo the new hold;
 * `reserveSteps` says when its rows are written).
 * When the new seats cannot be taken, the release still stands (as if the two had been separate
 * transactions) and the spec's message is thrown once the transaction is over: the taking runs in a
 * savepoint. Run alone it is a BEGIN IMMEDIATE transaction; inside a group commit (Proceed, ADR 0010)
 * it is a savepoint of the group's, and the buyer hears the outcome after the group's COMMIT.
 * With `input.hoarding`, the hoarding rules come first (ADR 0023): their refusal writes nothing, and
 * the new hold keeps the payment session of the unpaid hold it continues.
 */
export function replaceHoldsAndReserve(
  db: Db,
  input: ReserveInput,
  now: Date,
  recordOrder?: HoldRecord,
): Hold {
  const outcome = immediateTransaction(db, () =>
    runSync(replaceHoldsAndReserveSteps(db, input, now, recordOrder)),
  );
  if (!outcome.ok) throw outcome.refused;
  return outcome.hold;
}

/**
 * What Proceed's transaction ended with: the new hold, or the refusal to tell the buyer once it has
 * committed (the release of the hold it replaced stands).
 */
export type ReplaceOutcome = { ok: true; hold: Hold } | { ok: false; refused: DomainError };

/**
 * `replaceHoldsAndReserve`'s transaction written once for both engines (ADR 0045). On PostgreSQL, where
 * Proceeds run at once, it first serialises on the buyer (and their address while its caps are on):
 * the hoarding counts, the buyer's holds to replace and the new hold are read and written one buyer's
 * Proceed at a time, so ten racing Proceeds leave one live hold. The keys come before any row lock;
 * the rows are then locked in id order by the release and the hold. `recordOrder` runs in the new
 * hold's savepoint, so its refusal undoes the hold but not the release.
 */
export function* replaceHoldsAndReserveSteps(
  tx: DbOrTx,
  input: ReserveInput,
  now: Date,
  recordOrder?: HoldRecord,
): Steps<ReplaceOutcome> {
  for (const key of hoardingLockKeys(input.userId, input.hoarding)) yield* serialize(key);
  // A refusal here writes nothing: the buyer's earlier hold, if any, stays as it was.
  const checked = input.hoarding
    ? yield* checkHoardingSteps(tx, input.hoarding, { ...input, seats: seatsOf(input.lines) }, now)
    : null;
  const window = checked?.window ?? null;
  const active = yield* rows(query(tx, 'activeHoldsOnSlot'), { userId: input.userId, slotId: input.slotId });
  if ((yield* releaseActiveSteps(tx, active, now)) === 0) {
    // The flash sale's path (a new buyer): no generator between this one and the hold's statements.
    return { ok: true, hold: yield* reserveSteps(tx, input, now, window, recordOrder) };
  }
  return yield* replacementSteps(tx, input, now, window, recordOrder);
}

/**
 * The new hold after a release: in a savepoint, so its refusal undoes only its own writes and the
 * release stands. Its own function, so the try/catch stays off the flash sale's path.
 */
function* replacementSteps(
  tx: DbOrTx,
  input: ReserveInput,
  now: Date,
  window: HoldWindow | null,
  recordOrder?: HoldRecord,
): Steps<ReplaceOutcome> {
  try {
    return { ok: true, hold: yield* savepoint(tx, reserveSteps(tx, input, now, window, recordOrder)) };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { ok: false, refused: err };
  }
}

/** The selection's ticket types are not all on the slot (spec §7's message). */
const NO_TYPES_ON_SLOT_MESSAGE = 'No ticket types available for this slot.';

/**
 * What a selection costs at today's prices, read before any seat is taken, so the gateway order can
 * be opened first. Checks that every ticket type belongs to the slot, and refuses with the spec's
 * messages when the seats are plainly gone, so a sold-out rush does not open a gateway order per buyer;
 * a buyer's own active hold on the slot may free seats for the new Proceed, so then only the
 * transaction decides. Advisory: `replaceHoldsAndReserve` still decides, under its lock.
 */
export function quoteSeats(
  db: Db,
  input: Pick<ReserveInput, 'userId' | 'slotId' | 'lines'>,
): (HoldLine & { name: string; pricePaise: number; personsPerTicket: number })[] {
  return runSync(quoteSeatsSteps(db, input));
}

/** `quoteSeats` written once for both engines (ADR 0045): the "Apply code" quote reads it on either. */
export function* quoteSeatsSteps(
  db: DbOrTx,
  input: Pick<ReserveInput, 'userId' | 'slotId' | 'lines'>,
): Steps<(HoldLine & { name: string; pricePaise: number; personsPerTicket: number })[]> {
  let mayFreeSeats: boolean | undefined;
  const quoted: (HoldLine & { name: string; pricePaise: number; personsPerTicket: number })[] = [];
  for (const line of input.lines) {
    const type = yield* row(query(db, 'ticketType'), { ticketTypeId: line.ticketTypeId });
    if (type?.slotId !== input.slotId) throw notFound(NO_TYPES_ON_SLOT_MESSAGE);
    checkQuantity(line.quantity);
    // A shared capacity (quota, ADR 0039) may be gone while the type still has seats.
    const left = Math.min(type.availableTickets, type.quotaLeft ?? Number.POSITIVE_INFINITY);
    if (!type.isLive || left < line.quantity) {
      mayFreeSeats ??=
        (yield* rows(query(db, 'activeHoldsOnSlot'), { userId: input.userId, slotId: input.slotId })).length >
        0;
      if (!mayFreeSeats) throw soldOut({ ...type, availableTickets: left });
    }
    quoted.push({
      ...line,
      name: type.name,
      pricePaise: type.pricePaise,
      personsPerTicket: type.personsPerTicket,
    });
  }
  return quoted;
}

/**
 * Ends an active hold and adds its seats back, in the same transaction. Returns false when the hold
 * was already converted or released (so releasing twice never adds seats twice). With `userId`, only
 * that person's hold is touched.
 */
export function releaseHold(
  db: Db,
  holdId: string,
  reason: string,
  now: Date,
  userId?: string,
  release: ReleaseSteps = releaseHoldSteps,
): Promise<boolean> {
  // On either engine (ADR 0045): SQLite's runner keeps the one synchronous write transaction.
  return runnerFor(db).write((tx) => release(tx, holdId, reason, now, userId));
}

/**
 * The release written once for both engines (ADR 0045): the hold's row is ended by a conditional
 * UPDATE (only an active hold, so two releases racing give back once), then its seats, its quotas'
 * seats, its add-ons and its code's use go back, rows in the order a hold takes them (ticket types,
 * quotas and add-on variants each by id, then the code), so on PostgreSQL a release and a hold never
 * wait on each other in a circle.
 */
export function* releaseHoldSteps(
  tx: DbOrTx,
  holdId: string,
  reason: string,
  now: Date,
  userId?: string,
): Steps<boolean> {
  const ended =
    userId === undefined
      ? yield* changes(query(tx, 'endHold'), { holdId, reason, endedAt: now.toISOString() })
      : yield* changes(query(tx, 'endHoldOfUser'), { holdId, reason, endedAt: now.toISOString(), userId });
  if (ended !== 1) return false;
  yield* returnSeatsSteps(tx, yield* rows(query(tx, 'itemsOfHold'), { holdId }));
  yield* returnHoldAddOnsSteps(tx, holdId);
  // An unpaid hold's discount code use goes back with its seats (issue 40).
  yield* returnDiscountUseSteps(tx, holdId, now);
  return true;
}

/**
 * Seats back on sale: each line's type's `available_tickets`, then its quotas' (ADR 0039). The one
 * give-back of a released hold, a cancellation and a part refund (bookings/). Types and quotas in id
 * order, as a hold takes them.
 */
export function* returnSeatsSteps(tx: DbOrTx, lines: readonly HoldLine[]): Steps<void> {
  const sorted = lines.filter((l) => l.quantity > 0).sort(byTicketType);
  for (const line of sorted) {
    yield* changes(query(tx, 'addSeats'), { ticketTypeId: line.ticketTypeId, quantity: line.quantity });
  }
  yield* returnQuotaSeatsSteps(tx, sorted);
}

/**
 * How the sweeper releases one hold, as steps of its transaction: `releaseHoldSteps`, or the waiting
 * list's wrapper that also passes the seats on (services/waitlist/pass-on.ts, `releaseAndPassOnSteps`).
 */
export type ReleaseSteps = (
  tx: DbOrTx,
  holdId: string,
  reason: string,
  now: Date,
  userId?: string,
) => Steps<boolean>;

/**
 * The sweeper: releases every hold past its expiry, even if nobody comes back, on the app's engine
 * (one transaction per hold). Two servers' sweepers racing release each hold once: the release is a
 * conditional UPDATE of an active hold. Returns how many this one released.
 */
export async function sweepExpiredHolds(
  db: Db,
  now: Date,
  limit = 500,
  release: ReleaseSteps = releaseHoldSteps,
): Promise<number> {
  const run = runnerFor(db);
  const expired = await run.read(function* (db) {
    const { holds } = tablesOf(db);
    return yield* rows(
      db
        .select({ id: holds.id })
        .from(holds)
        .where(and(eq(holds.status, 'active'), lte(holds.expiresAt, now.toISOString())))
        .orderBy(asc(holds.expiresAt))
        .limit(limit),
    );
  });
  let released = 0;
  for (const hold of expired) {
    if (await run.write((tx) => release(tx, hold.id, 'expired', now))) released += 1;
  }
  return released;
}

/**
 * For a payment that arrived after its hold was released (payments/confirm.ts): takes the same seats,
 * add-ons and code use again if they are still there, and says whether it did. All or nothing, on both
 * engines (ADR 0045): the retake runs in a savepoint of the caller's transaction, so a line that cannot
 * be taken again undoes the lines taken before it and the caller carries on (to a refund) without them.
 */
export function* retakeHeldSeatsOrNotSteps(tx: DbOrTx, holdId: string): Steps<boolean> {
  try {
    yield* savepoint(tx, retakeHeldSeatsSteps(tx, holdId));
    return true;
  } catch (err) {
    if (err instanceof DomainError) return false;
    throw err;
  }
}

/**
 * `retakeHeldSeats`' statements: throws the refusal when a line cannot be taken again, so its caller
 * runs it in a savepoint (`retakeHeldSeatsOrNotSteps`) and carries on without the seats.
 */
export function* retakeHeldSeatsSteps(tx: DbOrTx, holdId: string): Steps<void> {
  yield* takeSeatsSteps(tx, yield* rows(query(tx, 'itemsOfHold'), { holdId }));
  yield* retakeHoldAddOnsSteps(tx, holdId);
  yield* retakeDiscountUseSteps(tx, holdId);
}

/**
 * `BEGIN IMMEDIATE` … `COMMIT` (ROLLBACK when `work` throws) straight on the connection: the same as
 * Drizzle's `db.transaction(…, { behavior: 'immediate' })`, without building a transaction object over
 * the whole schema on every call (5 % of a reservation's CPU). The statements inside are the
 * database's prepared ones, which run on this same connection.
 */
function immediateTransaction<T>(db: Db, work: () => T): T {
  return transactionOf(db.$client).immediate(work) as T;
}

/** Releases a person's other active holds on a slot (read in this transaction), inside it. */
function* releaseActiveSteps(tx: DbOrTx, active: { id: string }[], now: Date): Steps<number> {
  yield* refuseOverOfferSteps(tx, active);
  let released = 0;
  for (const hold of active) if (yield* releaseHoldSteps(tx, hold.id, 'replaced', now)) released += 1;
  return released;
}

/**
 * A waiting-list offer is an active hold too: replacing it would spend the offer (its seats gone back
 * or to the next in line). It is paid from the offer page, or given up by leaving the list. Proceed
 * asks before it opens a gateway order (`refuseProceedOverOffer`), and again under the write lock.
 */
function* refuseOverOfferSteps(db: DbOrTx, active: { id: string }[]): Steps<void> {
  for (const hold of active) {
    if (yield* row(query(db, 'liveOfferOnHold'), { holdId: hold.id })) {
      throw conflict(WAITLIST_MESSAGES.offerPending);
    }
  }
}

/**
 * Throws WAITLIST_MESSAGES.offerPending when the buyer holds a live waiting-list offer on the slot.
 * `active`: the buyer's active holds on the slot when the caller has just read them (the hoarding rules).
 */
export function refuseProceedOverOffer(
  db: Db,
  userId: string,
  slotId: string,
  active?: { id: string }[],
): void {
  runSync(refuseProceedOverOfferSteps(db, userId, slotId, active));
}

/** `refuseProceedOverOffer` written once for both engines (ADR 0045): a step of Proceed's checks. */
export function* refuseProceedOverOfferSteps(
  db: DbOrTx,
  userId: string,
  slotId: string,
  active?: { id: string }[],
): Steps<void> {
  yield* refuseOverOfferSteps(
    db,
    active ?? (yield* rows(query(db, 'activeHoldsOnSlot'), { userId, slotId })),
  );
}

export function seatsOf(lines: HoldLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

/**
 * A hold for a waiting-list offer (services/waitlist): the same seats, prices and rows as a Proceed's,
 * inside the caller's transaction, for the offer's time instead of the payment session. Throws the
 * spec's message (rolling back to the caller's savepoint) when the seats are not there.
 */
export function holdSeatsIn(tx: DbOrTx, input: ReserveInput, now: Date, window: HoldWindow): Hold {
  return runSync(reserveSteps(tx, input, now, window));
}

/**
 * The hold and its lines, inside the caller's transaction. With `window`, the hold keeps the payment
 * session of the unpaid hold it continues (a replacement Proceed never extends it).
 */
function reserveIn(tx: DbOrTx, input: ReserveInput, now: Date, window: HoldWindow | null = null): Hold {
  return runSync(reserveSteps(tx, input, now, window));
}

/**
 * What a caller writes with a new hold in its transaction (Proceed: the payment order and the buyer's
 * answers), and its own refusal of it. A plain function is `write` alone.
 */
export type HoldRecord =
  | ((hold: Hold) => Steps<void>)
  | {
      /** Refuses the new hold (throws a DomainError), asked once its seats are taken. */
      check: (hold: Hold) => void;
      /** Rows that lock no hot row: written before the seats are taken when the hold's amounts allow. */
      write: (hold: Hold) => Steps<void>;
    };

/**
 * The hold written once for both engines (ADR 0045), inside the caller's transaction: every row it
 * changes is changed by a conditional UPDATE that decides on the row as committed (PostgreSQL waits for
 * a row another transaction holds and checks it again), never a lock on the whole event, and in one
 * order: ticket types by id, their quotas by id, add-on variants by id, then the code. Two holds (or a
 * hold and a release) on PostgreSQL therefore never deadlock; on SQLite they run one at a time anyway.
 * `record` (the caller's rows, and its refusal) runs in the same transaction.
 *
 * On PostgreSQL a type's row stays locked from its UPDATE to the COMMIT, and every statement in between
 * is a round trip to a busy app process (docs/benchmarks.md, the hot ticket type): the holds of one type
 * pass one at a time, at ≈ 1 / (time locked). So a hold whose amounts are known before any row is taken
 * (no add-ons, no code) writes itself, its items and `record`'s rows first, and takes its seats and
 * quotas last, right before the COMMIT. A refused take throws as before and the caller's transaction
 * or savepoint rolls those rows back; the refusals and their order are unchanged (the quantity and the
 * types first, then the seats, then `record`'s check). A hold with add-ons or a code is priced from
 * what their UPDATEs return (the code's terms come back from its conditional UPDATE), so it is written
 * after them.
 */
export function* reserveSteps(
  tx: DbOrTx,
  input: ReserveInput,
  now: Date,
  window: HoldWindow | null = null,
  record?: HoldRecord,
): Steps<Hold> {
  // Each type's row is read once: whether it is hidden, its price, its seats, its quotas.
  const types: (TicketTypeRow | undefined)[] = [];
  for (const line of input.lines) {
    types.push(yield* row(query(tx, 'ticketType'), { ticketTypeId: line.ticketTypeId }));
  }
  // A hidden type needs its access code (ADR 0038), whose use is then taken below like a discount's.
  if (!input.sellsHiddenTypes) {
    const lines = input.lines.map((line, i) => ({ ...line, isHidden: types[i]?.isHidden ?? false }));
    yield* refuseLockedTypesSteps(tx, { ...input, lines, code: input.discountCode }, now);
  }
  const lines = linesOfTypes(input.lines, types);
  const { check, write } =
    typeof record === 'function' ? { check: undefined, write: record } : (record ?? {});
  if (!input.discountCode && !input.addOns?.length) {
    // The flash sale's path: the hot rows are locked by the last statements before the COMMIT.
    const hold = priceHold(input, lines, null, null, now, window);
    yield* insertHoldSteps(tx, input, hold, null, null, now);
    if (write) yield* write(hold.hold);
    yield* takeLinesSteps(tx, lines, types);
    check?.(hold.hold);
    return hold.hold;
  }
  yield* takeLinesSteps(tx, lines, types);
  // Add-ons' stock under the same lock; their GST-inclusive amount joins the total, not the fee's base.
  // Before the code's use: variants are locked before the code, as a release gives them back.
  const addOns = input.addOns?.length
    ? yield* takeAddOnsSteps(tx, {
        eventId: input.eventId,
        ticketTypeIds: lines.map((l) => l.ticketTypeId),
        selection: input.addOns,
        taxes: input.taxes ?? DEFAULT_CHECKOUT_TAXES,
      })
    : null;
  // The code is checked and its use taken under the same lock as the seats (issue 40).
  const discount: AppliedDiscount | null = input.discountCode
    ? yield* takeDiscountUseSteps(
        tx,
        {
          eventId: input.eventId,
          slotId: input.slotId,
          userId: input.userId,
          code: input.discountCode,
          lines,
        },
        now,
      )
    : null;
  const hold = priceHold(input, lines, discount, addOns, now, window);
  yield* insertHoldSteps(tx, input, hold, discount, addOns, now);
  check?.(hold.hold);
  if (write) yield* write(hold.hold);
  return hold.hold;
}

type HoldLineOfType = HoldLine & { pricePaise: number; personsPerTicket: number; quotaIds: string[] };

interface PricedHold {
  hold: Hold;
  lines: (HoldLineOfType & { discountPerTicketPaise: number })[];
}

/** The hold's amounts and ids: its lines at the types' prices, less the code's discount, plus add-ons. */
function priceHold(
  input: ReserveInput,
  lines: HoldLineOfType[],
  discount: AppliedDiscount | null,
  addOns: AddOnSale | null,
  now: Date,
  window: HoldWindow | null,
): PricedHold {
  const priced = lines.map((line) => ({
    ...line,
    ...(input.complimentary ? { pricePaise: 0 } : {}),
    discountPerTicketPaise: discount?.perTicket.get(line.ticketTypeId) ?? 0,
  }));
  const amounts = checkoutPriceBreakdown(
    priced,
    input.platformFeeRate,
    input.taxes ?? DEFAULT_CHECKOUT_TAXES,
  );
  const hold: Hold = {
    id: timeOrderedUuid(now.getTime()),
    discountPaise: discount?.discountPaise ?? 0,
    subtotalPaise: amounts.subtotalPaise,
    feePaise: amounts.feePaise,
    igstPaise: amounts.igstPaise,
    totalPaise: amounts.grandTotalPaise + (addOns?.totalPaise ?? 0),
    sessionExpiresAt: new Date(now.getTime() + PAYMENT_SESSION_MS).toISOString(),
    expiresAt: new Date(now.getTime() + PAYMENT_SESSION_MS + HOLD_GRACE_MS).toISOString(),
    ...window,
  };
  return { hold, lines: priced };
}

/** The hold's row, its items and its add-ons' lines. */
function* insertHoldSteps(
  tx: DbOrTx,
  input: ReserveInput,
  { hold, lines }: PricedHold,
  discount: AppliedDiscount | null,
  addOns: AddOnSale | null,
  now: Date,
): Steps<void> {
  yield* changes(query(tx, 'insertHold'), {
    ...hold,
    seats: seatsOf(lines),
    clientAddress: input.hoarding?.clientAddress ?? null,
    userId: input.userId,
    eventId: input.eventId,
    eventDateId: input.eventDateId,
    slotId: input.slotId,
    details: input.details,
    userCity: input.userCity,
    createdAt: now.toISOString(),
    // The code's use lives on the hold's own row (issue 40): no second table for a Proceed with a code.
    ...discountColumnsOf(discount),
    // The admission GST this hold was priced with, in the same row: its invoice is computed from it, so
    // an edit of the event's rate or kind while the buyer pays cannot make the invoice disagree with the
    // money (ADR 0033). Null without the event's settings (benchmarks, the inventory's own tests).
    admissionTaxRatePercent: input.taxes?.admissionTaxRatePercent ?? null,
    admissionExemptionApplies: input.taxes?.admissionExemptionApplies ?? null,
  });
  // In ticket-type id order (`position` keeps the buyer's): on PostgreSQL each item's foreign key takes
  // FOR KEY SHARE on its type's row before the hold's UPDATEs, and the quota editor locks those rows FOR
  // UPDATE in id order (quotas/quota-members.ts), so the two must take them in one order.
  const entries = [...lines.entries()];
  if (entries.length > 1) entries.sort(([, a], [, b]) => byTicketType(a, b));
  for (const [position, line] of entries) {
    yield* changes(query(tx, 'insertHoldItem'), {
      holdId: hold.id,
      ticketTypeId: line.ticketTypeId,
      quantity: line.quantity,
      pricePaise: line.pricePaise,
      position,
      discountPaise: line.discountPerTicketPaise,
    });
  }
  if (addOns) yield* recordHoldAddOnsSteps(tx, hold.id, addOns);
}

/**
 * One conditional UPDATE per line, then one per quota of the lines' types; throws the spec's message
 * (rolling back) when a line cannot be taken.
 * Also how the demo seed sells its sold-out types (db/seed/demo-sales.ts), inside its own transaction.
 */
export function takeSeats(
  tx: DbOrTx,
  lines: HoldLine[],
): (HoldLine & { pricePaise: number; personsPerTicket: number })[] {
  return runSync(takeSeatsSteps(tx, lines));
}

/** `takeSeats` written once for both engines. */
export function* takeSeatsSteps(
  tx: DbOrTx,
  lines: HoldLine[],
): Steps<(HoldLine & { pricePaise: number; personsPerTicket: number })[]> {
  const types: (TicketTypeRow | undefined)[] = [];
  for (const line of lines)
    types.push(yield* row(query(tx, 'ticketType'), { ticketTypeId: line.ticketTypeId }));
  const taken = linesOfTypes(lines, types);
  yield* takeLinesSteps(tx, taken, types);
  return taken;
}

/**
 * Each line with its type's price and quotas (`types[i]`, read in this transaction, for `lines[i]`);
 * refuses a type that is not there or a quantity out of bounds, before any seat is taken.
 */
function linesOfTypes(lines: HoldLine[], types: (TicketTypeRow | undefined)[]): HoldLineOfType[] {
  return lines.map((line, i) => {
    const type = types[i];
    if (!type) throw new DomainError('NOT_FOUND', 'Event data not available');
    checkQuantity(line.quantity);
    return {
      ...line,
      pricePaise: type.pricePaise,
      personsPerTicket: type.personsPerTicket,
      quotaIds: type.quotaIds,
    };
  });
}

/**
 * Takes the lines' seats (`linesOfTypes`' lines, `types` as read for them): the UPDATEs run in
 * ticket-type id order (the lines keep theirs), so two PostgreSQL transactions taking the same types
 * lock their rows in one order; then the quotas'.
 */
function* takeLinesSteps(
  tx: DbOrTx,
  taken: HoldLineOfType[],
  types: (TicketTypeRow | undefined)[],
): Steps<void> {
  const inIdOrder = taken.length > 1 ? [...taken].sort(byTicketType) : taken;
  for (const line of inIdOrder) {
    const changed = yield* changes(query(tx, 'takeSeats'), {
      ticketTypeId: line.ticketTypeId,
      quantity: line.quantity,
    });
    // Read again in this same transaction (an earlier line may have taken from it), so it says why the
    // update changed nothing.
    if (changed !== 1) {
      const now = yield* row(query(tx, 'ticketType'), { ticketTypeId: line.ticketTypeId });
      throw soldOut(now ?? types[taken.findIndex((l) => l.ticketTypeId === line.ticketTypeId)]!);
    }
  }
  // PostgreSQL: the quotas read with the type came before its row lock, so a quota created in between
  // (its editor locks the types FOR UPDATE, quota-members.ts) would go uncharged. Read again now that
  // the UPDATE holds the row: READ COMMITTED's next statement sees what committed before the lock was
  // granted. SQLite's single writer read them under its lock already.
  if (isPostgres(tx))
    for (const line of taken)
      line.quotaIds =
        (yield* row(query(tx, 'ticketType'), { ticketTypeId: line.ticketTypeId }))?.quotaIds ?? [];
  // And from every shared capacity the types count towards (ADR 0039), under the same lock.
  yield* takeQuotaSeatsSteps(tx, taken);
}

function byTicketType(a: { ticketTypeId: string }, b: { ticketTypeId: string }): number {
  return a.ticketTypeId < b.ticketTypeId ? -1 : a.ticketTypeId > b.ticketTypeId ? 1 : 0;
}

/**
 * A line's quantity before its type is read: a whole number of tickets, at least one, within the shared
 * per-order rule (shared/per-order-max.ts; the type's own maximum is Proceed's, start-checkout.ts). A
 * quantity that is no count of tickets gets the rule's message too, as the schema gives it at the edge.
 */
function checkQuantity(quantity: number) {
  const count = Number.isInteger(quantity) && quantity >= 1 ? quantity : Number.POSITIVE_INFINITY;
  const problem = perOrderMaxProblem(null, count);
  if (problem) throw new DomainError('BAD_REQUEST', problem);
}

/** 'Sold Out' when nothing is left (or the type is off sale), else the spec's insufficient-tickets message. */
function soldOut(type: { name: string; isLive: boolean; availableTickets: number }): DomainError {
  if (!type.isLive || type.availableTickets <= 0) return conflict(`${type.name}: Sold Out`);
  return conflict(`Insufficient tickets available for ${type.name}`);
}

const p = sql.placeholder;

/**
 * Every statement of a reservation and a release, as Drizzle prepared queries: building a query cost
 * several times more than running it, on the path every buyer of a rush takes (docs/benchmarks.md).
 * Plain portable SQL; each is built on first use for a database and kept (an open transaction runs them
 * on the same connection, so the database's own are used inside `db.transaction`).
 */
const builders = {
  ticketType: (db: DbOrTx) => {
    const { ticketTypes } = tablesOf(db);
    return db
      .select({
        name: ticketTypes.name,
        slotId: ticketTypes.slotId,
        pricePaise: ticketTypes.pricePaise,
        personsPerTicket: ticketTypes.personAllowedPerTicket,
        availableTickets: ticketTypes.availableTickets,
        isLive: ticketTypes.isLive,
        isHidden: ticketTypes.isHidden,
        quotaLeft: QUOTA_LEFT_OF_TYPE,
        quotaIds: quotaIdsOfType(db) as SQL<string[]>,
      })
      .from(ticketTypes)
      .where(eq(ticketTypes.id, p('ticketTypeId')))
      .prepare();
  },
  takeSeats: (db: DbOrTx) => {
    const { ticketTypes } = tablesOf(db);
    return db
      .update(ticketTypes)
      .set({ availableTickets: sql`${ticketTypes.availableTickets} - ${p('quantity')}` })
      .where(
        and(
          eq(ticketTypes.id, p('ticketTypeId')),
          eq(ticketTypes.isLive, true),
          gte(ticketTypes.availableTickets, p('quantity')),
        ),
      )
      .prepare();
  },
  addSeats: (db: DbOrTx) => {
    const { ticketTypes } = tablesOf(db);
    return db
      .update(ticketTypes)
      .set({ availableTickets: sql`${ticketTypes.availableTickets} + ${p('quantity')}` })
      .where(eq(ticketTypes.id, p('ticketTypeId')))
      .prepare();
  },
  insertHold: (db: DbOrTx) => {
    const { holds } = tablesOf(db);
    return db
      .insert(holds)
      .values({
        id: p('id'),
        userId: p('userId'),
        eventId: p('eventId'),
        eventDateId: p('eventDateId'),
        slotId: p('slotId'),
        details: p('details'),
        userCity: p('userCity'),
        subtotalPaise: p('subtotalPaise'),
        feePaise: p('feePaise'),
        igstPaise: p('igstPaise'),
        totalPaise: p('totalPaise'),
        sessionExpiresAt: p('sessionExpiresAt'),
        expiresAt: p('expiresAt'),
        seats: p('seats'),
        clientAddress: p('clientAddress'),
        createdAt: p('createdAt'),
        discountCodeId: p('discountCodeId'),
        discountPaise: p('discountPaise'),
        admissionTaxRatePercent: p('admissionTaxRatePercent'),
        admissionExemptionApplies: p('admissionExemptionApplies'),
      })
      .prepare();
  },
  insertHoldItem: (db: DbOrTx) => {
    const { holdItems } = tablesOf(db);
    return db
      .insert(holdItems)
      .values({
        holdId: p('holdId'),
        ticketTypeId: p('ticketTypeId'),
        quantity: p('quantity'),
        pricePaise: p('pricePaise'),
        position: p('position'),
        discountPaise: p('discountPaise'),
      })
      .prepare();
  },
  // The status is a literal, not a bound value: SQLite uses the partial index holds_active_user_slot_idx
  // (WHERE status = 'active') only when the query's own text implies its condition.
  activeHoldsOnSlot: (db: DbOrTx) => {
    const { holds } = tablesOf(db);
    return db
      .select({ id: holds.id })
      .from(holds)
      .where(
        and(eq(holds.userId, p('userId')), eq(holds.slotId, p('slotId')), sql`${holds.status} = 'active'`),
      )
      .prepare();
  },
  liveOfferOnHold: (db: DbOrTx) => {
    const { waitlistEntries } = tablesOf(db);
    return db
      .select({ id: waitlistEntries.id })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.offerHoldId, p('holdId')), sql`${waitlistEntries.status} = 'offered'`))
      .prepare();
  },
  endHold: (db: DbOrTx) => {
    const { holds } = tablesOf(db);
    return db
      .update(holds)
      .set({ status: 'released', releaseReason: sql`${p('reason')}`, endedAt: sql`${p('endedAt')}` })
      .where(and(eq(holds.id, p('holdId')), eq(holds.status, 'active')))
      .prepare();
  },
  endHoldOfUser: (db: DbOrTx) => {
    const { holds } = tablesOf(db);
    return db
      .update(holds)
      .set({ status: 'released', releaseReason: sql`${p('reason')}`, endedAt: sql`${p('endedAt')}` })
      .where(and(eq(holds.id, p('holdId')), eq(holds.status, 'active'), eq(holds.userId, p('userId'))))
      .prepare();
  },
  itemsOfHold: (db: DbOrTx) => {
    const { holdItems } = tablesOf(db);
    return db
      .select({ ticketTypeId: holdItems.ticketTypeId, quantity: holdItems.quantity })
      .from(holdItems)
      .where(eq(holdItems.holdId, p('holdId')))
      .orderBy(asc(holdItems.position))
      .prepare();
  },
};

const query = preparedQueries(builders);

type TicketTypeRow = NonNullable<ReturnType<ReturnType<typeof builders.ticketType>['get']>>;
