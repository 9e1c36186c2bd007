import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ADD_ON_MESSAGES, type AddOnFields } from '../../../shared/add-on-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { addOns, addOnVariants } from '../../db/schema/add-ons.ts';
import { eventDates, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { badRequest, notFound } from '../../errors.ts';

/** A new add-on for the event (the editor's "Add-ons" section), with its variants' stock. */
export function createAddOn(
  db: Db,
  eventId: string,
  fields: AddOnFields,
  now: Date,
): Promise<{ id: string }> {
  return writeTransaction(db, (tx) => {
    checkTicketTypes(tx, eventId, fields.ticketTypeIds);
    const id = `ao-${randomUUID()}`;
    tx.insert(addOns)
      .values({ id, eventId, ...row(fields), createdAt: now.toISOString(), updatedAt: now.toISOString() })
      .run();
    fields.variants.forEach((variant, position) => {
      tx.insert(addOnVariants)
        .values({
          id: `av-${randomUUID()}`,
          addOnId: id,
          name: variant.name,
          stock: variant.stock,
          available: variant.stock,
          position,
        })
        .run();
    });
    return { id };
  });
}

/**
 * Edits an add-on. A variant's stock moves its `available` by the difference, never below what is sold
 * or held (refused, as a quota's capacity is); a variant left out of the list is kept off sale with no
 * stock when something was sold of it (a booking names it), removed otherwise. Price and rate apply to
 * new holds: what was sold keeps its own (booking_add_ons).
 */
export function updateAddOn(
  db: Db,
  eventId: string,
  addOnId: string,
  fields: AddOnFields,
  now: Date,
): Promise<{ id: string }> {
  return writeTransaction(db, (tx) => {
    const found = tx
      .select({ id: addOns.id })
      .from(addOns)
      .where(and(eq(addOns.id, addOnId), eq(addOns.eventId, eventId)))
      .get();
    if (!found) throw notFound(ADD_ON_MESSAGES.notFound);
    checkTicketTypes(tx, eventId, fields.ticketTypeIds);
    tx.update(addOns)
      .set({ ...row(fields), updatedAt: now.toISOString() })
      .where(eq(addOns.id, addOnId))
      .run();
    const existing = tx.select().from(addOnVariants).where(eq(addOnVariants.addOnId, addOnId)).all();
    const kept = new Set<string>();
    fields.variants.forEach((variant, position) => {
      const old = variant.id ? existing.find((v) => v.id === variant.id) : undefined;
      if (variant.id && !old) throw notFound(ADD_ON_MESSAGES.variantNotFound);
      if (!old) {
        tx.insert(addOnVariants)
          .values({
            id: `av-${randomUUID()}`,
            addOnId,
            name: variant.name,
            stock: variant.stock,
            available: variant.stock,
            position,
          })
          .run();
        return;
      }
      kept.add(old.id);
      const taken = old.stock - old.available;
      if (variant.stock < taken) throw badRequest(ADD_ON_MESSAGES.belowTaken(variant.name, taken));
      // Relative to the row as it is now, under the write lock: a hold in between still counts.
      tx.update(addOnVariants)
        .set({
          name: variant.name,
          stock: variant.stock,
          available: sql`${addOnVariants.available} + ${variant.stock - old.stock}`,
          position,
        })
        .where(eq(addOnVariants.id, old.id))
        .run();
    });
    for (const gone of existing.filter((v) => !kept.has(v.id))) {
      if (gone.stock - gone.available > 0) {
        throw badRequest(ADD_ON_MESSAGES.belowTaken(gone.name, gone.stock - gone.available));
      }
      tx.update(addOnVariants)
        .set({ stock: 0, available: 0, position: 1000 + gone.position })
        .where(eq(addOnVariants.id, gone.id))
        .run();
    }
    return { id: addOnId };
  });
}

function row(fields: AddOnFields) {
  return {
    name: fields.name,
    description: fields.description,
    pricePaise: fields.pricePaise,
    taxRatePercent: fields.taxRatePercent,
    hsnSac: fields.hsnSac,
    maxPerOrder: fields.maxPerOrder,
    ticketTypeIds: fields.ticketTypeIds?.length ? fields.ticketTypeIds : null,
    isActive: fields.isActive,
  };
}

function checkTicketTypes(tx: DbOrTx, eventId: string, ids: string[] | null): void {
  if (!ids?.length) return;
  const found = tx
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
    .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
    .where(and(inArray(ticketTypes.id, ids), eq(eventDates.eventId, eventId)))
    .all();
  if (new Set(found.map((f) => f.id)).size !== new Set(ids).size) {
    throw badRequest(ADD_ON_MESSAGES.typeUnknown);
  }
}
