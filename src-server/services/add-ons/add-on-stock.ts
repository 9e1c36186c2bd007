import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import { addOnLineTotalPaise } from '../../../shared/add-on-pricing.ts';
import { ADD_ON_MESSAGES, type SelectedAddOn } from '../../../shared/add-on-schemas.ts';
import type { CheckoutTaxes } from '../../../shared/pricing.ts';
import type { DbOrTx } from '../../db/client.ts';
import { changes, row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';

/**
 * An add-on's stock moves as a ticket type's seats do (issue 40, ADR 0041): taken by a conditional
 * UPDATE (`available >= quantity`) in the hold's own transaction, given back wherever the hold is
 * released or the booking cancelled, so available + active holds + sold = stock per variant.
 */
export interface PricedAddOn {
  variantId: string;
  addOnId: string;
  quantity: number;
  pricePaise: number;
  taxRatePercent: number;
  totalPaise: number;
}

export interface AddOnSale {
  lines: PricedAddOn[];
  totalPaise: number;
}

interface SaleContext {
  eventId: string;
  /** The ticket types of the order: an add-on limited to some types needs one of them. */
  ticketTypeIds: string[];
  selection: readonly SelectedAddOn[];
  taxes: CheckoutTaxes;
}

/**
 * Prices the buyer's add-ons at today's prices and checks them (the event's, on sale, with these tickets,
 * within each add-on's per-order maximum), without taking stock: Proceed's quote before the gateway order.
 * Refuses a variant plainly sold out, so a rush does not open a gateway order per buyer.
 */
export function quoteAddOns(db: DbOrTx, sale: SaleContext): AddOnSale {
  return runSync(quoteAddOnsSteps(db, sale));
}

/** `quoteAddOns` written once for both engines (ADR 0045): a step of Proceed's checks. */
export function quoteAddOnsSteps(db: DbOrTx, sale: SaleContext): Steps<AddOnSale> {
  // biome-ignore lint/correctness/useYield: a check on the row already read, no statement of its own.
  return priceSelection(db, sale, function* (variant, line) {
    if (variant.available < line.quantity) throw shortOf(variant);
  });
}

/**
 * Takes the add-ons' stock inside the hold's transaction, under its lock: one conditional UPDATE per
 * variant (never below zero), variants in id order (so two PostgreSQL transactions never deadlock on
 * them); a refusal throws the spec-style message, rolling back the hold (seats included). Returns the
 * priced lines, to be recorded with `recordHoldAddOnsSteps` once the hold exists.
 */
export function* takeAddOnsSteps(tx: DbOrTx, sale: SaleContext): Steps<AddOnSale> {
  return yield* priceSelection(tx, sale, function* (variant, line) {
    const taken = yield* changes(query(tx, 'take'), { variantId: line.variantId, quantity: line.quantity });
    if (taken !== 1) throw shortOf(variant);
  });
}

export function* recordHoldAddOnsSteps(tx: DbOrTx, holdId: string, sale: AddOnSale): Steps<void> {
  const { holdAddOns } = tablesOf(tx);
  for (const [position, line] of sale.lines.entries()) {
    yield* changes(tx.insert(holdAddOns).values({ holdId, ...line, position }));
  }
}

/** The hold's add-ons back to stock (released, expired or replaced), in variant-id order, inside its transaction. */
export function* returnHoldAddOnsSteps(tx: DbOrTx, holdId: string): Steps<void> {
  for (const line of yield* rows(query(tx, 'ofHold'), { holdId })) {
    yield* changes(query(tx, 'give'), { variantId: line.variantId, quantity: line.quantity });
  }
}

/**
 * A late payment retakes its released hold's add-ons if they are still there (all or nothing: throws,
 * rolling the caller's savepoint back, seats included).
 */
export function* retakeHoldAddOnsSteps(tx: DbOrTx, holdId: string): Steps<void> {
  for (const line of yield* rows(query(tx, 'ofHold'), { holdId })) {
    const taken = yield* changes(query(tx, 'take'), { variantId: line.variantId, quantity: line.quantity });
    if (taken !== 1) throw conflict(ADD_ON_MESSAGES.variantNotFound);
  }
}

/**
 * A cancelled booking's add-ons go back to stock, except those already handed over at the gate (a
 * T-shirt given is not on sale again), in variant-id order. Once per line (`returned_at`), so a second
 * cancel adds nothing.
 */
export function* returnBookingAddOnsSteps(tx: DbOrTx, bookingId: string, now: Date): Steps<void> {
  const { bookingAddOns } = tablesOf(tx);
  const lines = yield* rows(
    tx
      .update(bookingAddOns)
      .set({ returnedAt: now.toISOString() })
      .where(
        and(
          eq(bookingAddOns.bookingId, bookingId),
          isNull(bookingAddOns.returnedAt),
          isNull(bookingAddOns.givenAt),
        ),
      )
      .returning({ variantId: bookingAddOns.variantId, quantity: bookingAddOns.quantity }),
  );
  for (const line of [...lines].sort((a, b) => (a.variantId < b.variantId ? -1 : 1))) {
    yield* changes(query(tx, 'give'), { variantId: line.variantId, quantity: line.quantity });
  }
}

/**
 * The booking's own copy of its hold's add-ons (names, code, price and rate as sold), in the
 * confirmation's transaction. The stock stays taken: it was taken by the hold.
 */
export function* bookAddOnsSteps(tx: DbOrTx, holdId: string, bookingId: string): Steps<void> {
  const { addOns, addOnVariants, bookingAddOns, holdAddOns } = tablesOf(tx);
  const lines = yield* rows(
    tx
      .select({
        addOnId: holdAddOns.addOnId,
        variantId: holdAddOns.variantId,
        quantity: holdAddOns.quantity,
        pricePaise: holdAddOns.pricePaise,
        taxRatePercent: holdAddOns.taxRatePercent,
        totalPaise: holdAddOns.totalPaise,
        position: holdAddOns.position,
        name: addOns.name,
        hsnSac: addOns.hsnSac,
        variantName: addOnVariants.name,
      })
      .from(holdAddOns)
      .innerJoin(addOnVariants, eq(addOnVariants.id, holdAddOns.variantId))
      .innerJoin(addOns, eq(addOns.id, holdAddOns.addOnId))
      .where(eq(holdAddOns.holdId, holdId))
      .orderBy(asc(holdAddOns.position)),
  );
  for (const line of lines) {
    yield* changes(
      tx.insert(bookingAddOns).values({ id: `${bookingId}-a${line.position + 1}`, bookingId, ...line }),
    );
  }
}

/** What a booking's add-ons charged, GST included: the booking's total beyond its tickets. */
export function addOnsPaiseOfBooking(tx: DbOrTx, bookingId: string): number {
  return runSync(addOnsPaiseOfBookingSteps(tx, bookingId));
}

/** `addOnsPaiseOfBooking` written once for both engines (ADR 0045). */
export function* addOnsPaiseOfBookingSteps(tx: DbOrTx, bookingId: string): Steps<number> {
  const { bookingAddOns } = tablesOf(tx);
  const total = yield* row(
    tx
      .select({ total: sql<number>`coalesce(sum(${bookingAddOns.totalPaise}), 0)` })
      .from(bookingAddOns)
      .where(eq(bookingAddOns.bookingId, bookingId)),
  );
  // PostgreSQL's sum of integers is a bigint, which node-postgres gives as a string.
  return Number(total?.total ?? 0);
}

type Variant = NonNullable<ReturnType<ReturnType<(typeof builders)['variant']>['get']>>;

function* priceSelection(
  db: DbOrTx,
  sale: SaleContext,
  take: (variant: Variant, line: SelectedAddOn) => Steps<void>,
): Steps<AddOnSale> {
  const perAddOn = new Map<string, number>();
  // In variant-id order: two holds take the same variants in the same order.
  const selection = [...sale.selection].sort((a, b) => (a.variantId < b.variantId ? -1 : 1));
  const lines: PricedAddOn[] = [];
  for (const line of selection) {
    const variant = yield* row(query(db, 'variant'), { variantId: line.variantId });
    if (!variant || variant.eventId !== sale.eventId || !variant.isActive) {
      throw notFound(ADD_ON_MESSAGES.variantNotFound);
    }
    const label = variant.variantName ? `${variant.name} (${variant.variantName})` : variant.name;
    const only = variant.ticketTypeIds;
    if (only && only.length > 0 && !sale.ticketTypeIds.some((id) => only.includes(id))) {
      throw badRequest(ADD_ON_MESSAGES.notForTypes(label));
    }
    const count = (perAddOn.get(variant.addOnId) ?? 0) + line.quantity;
    if (count > variant.maxPerOrder)
      throw badRequest(ADD_ON_MESSAGES.overMax(variant.name, variant.maxPerOrder));
    perAddOn.set(variant.addOnId, count);
    yield* take(variant, line);
    lines.push({
      variantId: line.variantId,
      addOnId: variant.addOnId,
      quantity: line.quantity,
      pricePaise: variant.pricePaise,
      taxRatePercent: variant.taxRatePercent,
      totalPaise: addOnLineTotalPaise(
        { pricePaise: variant.pricePaise, quantity: line.quantity, taxRatePercent: variant.taxRatePercent },
        {
          pricesPlusGst: sale.taxes.admissionTaxRatePercent !== null,
          intraState: sale.taxes.admissionIntraState,
        },
      ),
    });
  }
  return { lines, totalPaise: lines.reduce((sum, l) => sum + l.totalPaise, 0) };
}

function shortOf(variant: Variant) {
  const label = variant.variantName ? `${variant.name} (${variant.variantName})` : variant.name;
  return variant.available <= 0
    ? conflict(ADD_ON_MESSAGES.soldOut(label))
    : conflict(ADD_ON_MESSAGES.insufficient(label));
}

const p = sql.placeholder;

/** Prepared once per connection, as holds.ts's are: they run inside Proceed's transaction. */
const builders = {
  variant: (db: DbOrTx) => {
    const { addOns, addOnVariants } = tablesOf(db);
    return db
      .select({
        addOnId: addOns.id,
        eventId: addOns.eventId,
        name: addOns.name,
        variantName: addOnVariants.name,
        pricePaise: addOns.pricePaise,
        taxRatePercent: addOns.taxRatePercent,
        maxPerOrder: addOns.maxPerOrder,
        ticketTypeIds: addOns.ticketTypeIds,
        isActive: addOns.isActive,
        available: addOnVariants.available,
      })
      .from(addOnVariants)
      .innerJoin(addOns, eq(addOns.id, addOnVariants.addOnId))
      .where(eq(addOnVariants.id, p('variantId')))
      .prepare();
  },
  take: (db: DbOrTx) => {
    const { addOnVariants } = tablesOf(db);
    return db
      .update(addOnVariants)
      .set({ available: sql`${addOnVariants.available} - ${p('quantity')}` })
      .where(and(eq(addOnVariants.id, p('variantId')), gte(addOnVariants.available, p('quantity'))))
      .prepare();
  },
  give: (db: DbOrTx) => {
    const { addOnVariants } = tablesOf(db);
    return db
      .update(addOnVariants)
      .set({ available: sql`${addOnVariants.available} + ${p('quantity')}` })
      .where(eq(addOnVariants.id, p('variantId')))
      .prepare();
  },
  ofHold: (db: DbOrTx) => {
    const { holdAddOns } = tablesOf(db);
    return (
      db
        .select({ variantId: holdAddOns.variantId, quantity: holdAddOns.quantity })
        .from(holdAddOns)
        .where(eq(holdAddOns.holdId, p('holdId')))
        // Variant-id order: the release gives stock back in the order holds take it.
        .orderBy(asc(holdAddOns.variantId))
        .prepare()
    );
  },
};

const query = preparedQueries(builders);
