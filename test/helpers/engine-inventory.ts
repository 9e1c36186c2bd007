import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../src-server/db/client.ts';
import { rows } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';

/**
 * The inventory invariant's terms per ticket type, read through either engine's tables (ADR 0045) for
 * the two-engine tests: seats left, held by active holds and sold by confirmed bookings, against the
 * type's total.
 */
export function* inventoryOf(db: DbOrTx, typeIds: string[]) {
  const { ticketTypes, holds, holdItems, bookings } = tablesOf(db);
  const types = yield* rows(
    db
      .select({
        id: ticketTypes.id,
        total: ticketTypes.totalTickets,
        available: ticketTypes.availableTickets,
      })
      .from(ticketTypes)
      .where(inArray(ticketTypes.id, typeIds)),
  );
  const held = yield* rows(
    db
      .select({ ticketTypeId: holdItems.ticketTypeId, quantity: holdItems.quantity })
      .from(holdItems)
      .innerJoin(holds, eq(holds.id, holdItems.holdId))
      .where(eq(holds.status, 'active')),
  );
  const sold = yield* rows(
    db.select({ lines: bookings.ticketTypes }).from(bookings).where(eq(bookings.status, 'confirmed')),
  );
  return typeIds.map((id) => ({
    ticketTypeId: id,
    total: types.find((t) => t.id === id)!.total,
    available: types.find((t) => t.id === id)!.available,
    held: held.filter((h) => h.ticketTypeId === id).reduce((sum, h) => sum + h.quantity, 0),
    sold: sold
      .flatMap((b) => b.lines)
      .filter((l) => l.id === id)
      .reduce((sum, l) => sum + l.quantity, 0),
  }));
}

/** Shared capacities as they stand: what each holds and has left. */
export function* quotasOf(db: DbOrTx, ids: string[]) {
  const { quotas } = tablesOf(db);
  return yield* rows(
    db
      .select({ id: quotas.id, capacity: quotas.capacity, available: quotas.available })
      .from(quotas)
      .where(inArray(quotas.id, ids)),
  );
}
