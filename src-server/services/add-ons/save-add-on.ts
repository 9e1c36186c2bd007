import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ADD_ON_MESSAGES, type AddOnFields } from '../../../shared/add-on-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { badRequest, notFound } from '../../errors.ts';

/** A new add-on for the event (the editor's "Add-ons" section), with its variants' stock. */
export function createAddOn(
  db: Db,
  eventId: string,
  fields: AddOnFields,
  now: Date,
): Promise<{ id: string }> {
  return runnerFor(db).write(function* (tx) {
    const { addOns, addOnVariants } = tablesOf(tx);
    yield* checkTicketTypesSteps(tx, eventId, fields.ticketTypeIds);
    const id = `ao-${randomUUID()}`;
    yield* changes(
      tx.insert(addOns).values({
        id,
        eventId,
        ...addOnColumns(fields),
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      }),
    );
    for (const [position, variant] of fields.variants.entries()) {
      yield* changes(
        tx.insert(addOnVariants).values({
          id: `av-${randomUUID()}`,
          addOnId: id,
          name: variant.name,
          stock: variant.stock,
          available: variant.stock,
          position,
        }),
      );
    }
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
  return runnerFor(db).write(function* (tx) {
    const { addOns, addOnVariants } = tablesOf(tx);
    const found = yield* row(
      tx
        .select({ id: addOns.id })
        .from(addOns)
        .where(and(eq(addOns.id, addOnId), eq(addOns.eventId, eventId))),
    );
    if (!found) throw notFound(ADD_ON_MESSAGES.notFound);
    yield* checkTicketTypesSteps(tx, eventId, fields.ticketTypeIds);
    yield* changes(
      tx
        .update(addOns)
        .set({ ...addOnColumns(fields), updatedAt: now.toISOString() })
        .where(eq(addOns.id, addOnId)),
    );
    // On PostgreSQL a hold may commit between this read and a variant's UPDATE below: each UPDATE moves
    // the row as committed then, and its condition refuses a stock below what is taken by that time.
    const existing = yield* rows(tx.select().from(addOnVariants).where(eq(addOnVariants.addOnId, addOnId)));
    const kept = new Set<string>();
    for (const [position, variant] of fields.variants.entries()) {
      const old = variant.id ? existing.find((v) => v.id === variant.id) : undefined;
      if (variant.id && !old) throw notFound(ADD_ON_MESSAGES.variantNotFound);
      if (!old) {
        yield* changes(
          tx.insert(addOnVariants).values({
            id: `av-${randomUUID()}`,
            addOnId,
            name: variant.name,
            stock: variant.stock,
            available: variant.stock,
            position,
          }),
        );
        continue;
      }
      kept.add(old.id);
      const taken = old.stock - old.available;
      if (variant.stock < taken) throw badRequest(ADD_ON_MESSAGES.belowTaken(variant.name, taken));
      // Relative to the row as it is now, under the write lock: a hold in between still counts. Never
      // below zero: a hold committed since the read (PostgreSQL) took more than the new stock leaves.
      const moved = yield* changes(
        tx
          .update(addOnVariants)
          .set({
            name: variant.name,
            stock: variant.stock,
            available: sql`${addOnVariants.available} + ${variant.stock - old.stock}`,
            position,
          })
          .where(
            and(
              eq(addOnVariants.id, old.id),
              sql`${addOnVariants.available} + ${variant.stock - old.stock} >= 0`,
            ),
          ),
      );
      if (moved !== 1) {
        const current = yield* row(
          tx
            .select({ stock: addOnVariants.stock, available: addOnVariants.available })
            .from(addOnVariants)
            .where(eq(addOnVariants.id, old.id)),
        );
        const takenNow = current ? current.stock - current.available : taken;
        throw badRequest(ADD_ON_MESSAGES.belowTaken(variant.name, takenNow));
      }
    }
    for (const gone of existing.filter((v) => !kept.has(v.id))) {
      if (gone.stock - gone.available > 0) {
        throw badRequest(ADD_ON_MESSAGES.belowTaken(gone.name, gone.stock - gone.available));
      }
      yield* changes(
        tx
          .update(addOnVariants)
          .set({ stock: 0, available: 0, position: 1000 + gone.position })
          .where(eq(addOnVariants.id, gone.id)),
      );
    }
    return { id: addOnId };
  });
}

function addOnColumns(fields: AddOnFields) {
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

function* checkTicketTypesSteps(tx: DbOrTx, eventId: string, ids: string[] | null): Steps<void> {
  if (!ids?.length) return;
  const { eventDates, slots, ticketTypes } = tablesOf(tx);
  const found = yield* rows(
    tx
      .select({ id: ticketTypes.id })
      .from(ticketTypes)
      .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(and(inArray(ticketTypes.id, ids), eq(eventDates.eventId, eventId))),
  );
  if (new Set(found.map((f) => f.id)).size !== new Set(ids).size) {
    throw badRequest(ADD_ON_MESSAGES.typeUnknown);
  }
}
