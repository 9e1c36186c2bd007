import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { readSnapshot } from '../../db/engine/reads.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

export interface QuotaRow {
  id: string;
  name: string;
  capacity: number;
  /** Seats in unpaid holds of its types now. */
  held: number;
  /** Seats of its types bought (capacity − left − held). */
  sold: number;
  /** What buyers can still take from it. */
  left: number;
  /** Its slots: its ticket types' slots, one unless the organiser chose several. */
  slotIds: string[];
  ticketTypes: { id: string; name: string; slotId: string }[];
}

/**
 * An event's shared capacities with their sold, held and left, for the editor: one snapshot on either
 * engine, so sold (capacity − left − held) is never counted from a hold seen in one read and not another.
 */
export function listQuotas(db: Db, eventId: string): Promise<QuotaRow[]> {
  return readSnapshot(db, (db) => listQuotasSteps(db, eventId));
}

function* listQuotasSteps(db: DbOrTx, eventId: string): Steps<QuotaRow[]> {
  const { holdItems, holds, quotas, quotaTicketTypes, ticketTypes } = tablesOf(db);
  const found = yield* rows(
    db
      .select({ id: quotas.id, name: quotas.name, capacity: quotas.capacity, available: quotas.available })
      .from(quotas)
      .where(eq(quotas.eventId, eventId))
      .orderBy(asc(quotas.createdAt), asc(quotas.id)),
  );
  if (found.length === 0) return [];
  const ids = found.map((r) => r.id);
  const members = yield* rows(
    db
      .select({
        quotaId: quotaTicketTypes.quotaId,
        id: ticketTypes.id,
        name: ticketTypes.name,
        slotId: ticketTypes.slotId,
      })
      .from(quotaTicketTypes)
      .innerJoin(ticketTypes, eq(ticketTypes.id, quotaTicketTypes.ticketTypeId))
      .where(inArray(quotaTicketTypes.quotaId, ids))
      .orderBy(asc(ticketTypes.position), asc(ticketTypes.id)),
  );
  const heldRows = yield* rows(
    db
      .select({ quotaId: quotaTicketTypes.quotaId, held: sql<number>`sum(${holdItems.quantity})` })
      .from(quotaTicketTypes)
      .innerJoin(holdItems, eq(holdItems.ticketTypeId, quotaTicketTypes.ticketTypeId))
      .innerJoin(holds, eq(holds.id, holdItems.holdId))
      .where(and(inArray(quotaTicketTypes.quotaId, ids), sql`${holds.status} = 'active'`))
      .groupBy(quotaTicketTypes.quotaId),
  );
  // PostgreSQL answers a sum as text (bigint).
  const held = new Map(heldRows.map((r) => [r.quotaId, Number(r.held)]));
  return found.map((quota) => {
    const types = members.filter((m) => m.quotaId === quota.id).map(({ quotaId: _q, ...type }) => type);
    const heldNow = held.get(quota.id) ?? 0;
    return {
      id: quota.id,
      name: quota.name,
      capacity: quota.capacity,
      held: heldNow,
      sold: quota.capacity - quota.available - heldNow,
      left: quota.available,
      slotIds: [...new Set(types.map((t) => t.slotId))],
      ticketTypes: types,
    };
  });
}
