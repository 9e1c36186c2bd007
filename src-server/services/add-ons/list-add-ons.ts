import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { readSnapshot } from '../../db/engine/reads.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

export interface AddOnVariantRow {
  id: string;
  name: string;
  stock: number;
  /** In unpaid holds now. */
  held: number;
  /** Bought (stock − left − held). */
  sold: number;
  left: number;
}

export interface AddOnRow {
  id: string;
  name: string;
  description: string;
  pricePaise: number;
  taxRatePercent: number;
  hsnSac: string;
  maxPerOrder: number;
  ticketTypeIds: string[] | null;
  isActive: boolean;
  variants: AddOnVariantRow[];
}

/**
 * An event's add-ons with each variant's sold, held and left (the editor); with `forSale`, only those on
 * sale and variants with stock (the buyer's ticket selection, which shows what is left).
 */
export function listAddOns(db: DbOrTx, eventId: string): Promise<AddOnRow[]> {
  // One snapshot: sold (stock − left − held) never counts a hold seen by one read and not the other.
  return readSnapshot(db, (db) => listAddOnsSteps(db, eventId));
}

/** `listAddOns` written once for both engines (ADR 0045). */
export function* listAddOnsSteps(db: DbOrTx, eventId: string, forSale = false): Steps<AddOnRow[]> {
  const { addOns, addOnVariants, holdAddOns, holds } = tablesOf(db);
  const found = yield* rows(
    db
      .select()
      .from(addOns)
      .where(
        forSale ? and(eq(addOns.eventId, eventId), eq(addOns.isActive, true)) : eq(addOns.eventId, eventId),
      )
      .orderBy(asc(addOns.createdAt), asc(addOns.id)),
  );
  if (found.length === 0) return [];
  const ids = found.map((r) => r.id);
  const variants = yield* rows(
    db
      .select()
      .from(addOnVariants)
      .where(inArray(addOnVariants.addOnId, ids))
      .orderBy(asc(addOnVariants.position)),
  );
  const heldRows = yield* rows(
    db
      .select({ variantId: holdAddOns.variantId, held: sql<number>`sum(${holdAddOns.quantity})` })
      .from(holdAddOns)
      .innerJoin(holds, eq(holds.id, holdAddOns.holdId))
      .where(and(inArray(holdAddOns.addOnId, ids), sql`${holds.status} = 'active'`))
      .groupBy(holdAddOns.variantId),
  );
  // PostgreSQL answers a sum as text (bigint).
  const held = new Map(heldRows.map((r) => [r.variantId, Number(r.held)]));
  return found.map((a) => ({
    id: a.id,
    name: a.name,
    description: a.description,
    pricePaise: a.pricePaise,
    taxRatePercent: a.taxRatePercent,
    hsnSac: a.hsnSac,
    maxPerOrder: a.maxPerOrder,
    ticketTypeIds: a.ticketTypeIds,
    isActive: a.isActive,
    variants: variants
      .filter((v) => v.addOnId === a.id && (!forSale || v.stock > 0))
      .map((v) => {
        const heldNow = held.get(v.id) ?? 0;
        return {
          id: v.id,
          name: v.name,
          stock: v.stock,
          held: heldNow,
          sold: v.stock - v.available - heldNow,
          left: v.available,
        };
      }),
  }));
}

/** An add-on as the buyer's checkout shows it: no sold or held figures, only what is left. */
export interface BuyerAddOn {
  id: string;
  name: string;
  description: string;
  pricePaise: number;
  taxRatePercent: number;
  maxPerOrder: number;
  /** Only with these ticket types; null: with any. */
  ticketTypeIds: string[] | null;
  variants: { id: string; name: string; left: number }[];
}

/** The event's add-ons on sale, for the checkout (a step of its ticket options, on either engine). */
export function* addOnsForSaleSteps(db: DbOrTx, eventId: string): Steps<BuyerAddOn[]> {
  return (yield* listAddOnsSteps(db, eventId, true))
    .filter((a) => a.variants.length > 0)
    .map(({ variants, hsnSac: _code, isActive: _on, ...a }) => ({
      ...a,
      variants: variants.map((v) => ({ id: v.id, name: v.name, left: v.left })),
    }));
}
