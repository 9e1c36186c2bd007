import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
import { ticketTypes } from '../../db/schema/catalog.ts';
import { quotas, quotaTicketTypes } from '../../db/schema/quotas.ts';
import { conflict } from '../../errors.ts';

/**
 * A quota's seats move with its ticket types' (ADR 0039): wherever a type's `available_tickets` is
 * taken or given back, the same number is taken from or given back to every quota the type belongs to,
 * in the same transaction. A type without a quota costs one lookup of `quota_ticket_types`' primary key
 * that finds nothing.
 */
export interface SeatLine {
  ticketTypeId: string;
  quantity: number;
  /**
   * The type's quotas when the caller read them with the type's row in this same transaction
   * (`QUOTA_IDS_OF_TYPE`), so they are not looked up again; unknown: looked up.
   */
  quotaIds?: readonly string[];
}

/**
 * What the type's quotas still allow (the least of them), null for a type in no quota, as a column of a
 * query on `ticket_types`: the ticket type's own read answers it, with no statement of its own on the
 * path every Proceed takes (docs/benchmarks.md, issue 40's flash sale).
 */
export const QUOTA_LEFT_OF_TYPE = sql<number | null>`(select min(quotas.available) from quota_ticket_types
  inner join quotas on quotas.id = quota_ticket_types.quota_id
  where quota_ticket_types.ticket_type_id = ticket_types.id)`;

/** The type's quotas' ids (a JSON array, `[]` for none), as a column of a query on `ticket_types`. */
export const QUOTA_IDS_OF_TYPE = sql<string>`(select json_group_array(quota_ticket_types.quota_id)
  from quota_ticket_types where quota_ticket_types.ticket_type_id = ticket_types.id)`.mapWith(
  (ids: string) => JSON.parse(ids) as string[],
);

/**
 * Takes the lines' seats from their types' quotas, inside the caller's transaction, after the types'
 * own seats: one conditional UPDATE per quota (never below zero), quotas in id order (two holds that
 * share two quotas take them in the same order). Throws the spec's message for the first line whose
 * quota has too few left, which rolls the caller's transaction (or savepoint) back, the types' seats
 * included.
 */
export function takeQuotaSeatsIn(tx: DbOrTx, lines: readonly SeatLine[]): void {
  const perQuota = seatsPerQuota(tx, lines);
  if (perQuota.size === 0) return;
  for (const [quotaId, { quantity, ticketTypeId }] of [...perQuota].sort(byId)) {
    const taken = query(tx, 'takeQuota').run({ quotaId, quantity });
    if (taken.changes !== 1) throw quotaSoldOut(tx, quotaId, ticketTypeId);
  }
}

/** Gives the lines' seats back to their types' quotas, inside the caller's transaction. */
export function returnQuotaSeatsIn(tx: DbOrTx, lines: readonly SeatLine[]): void {
  const perQuota = seatsPerQuota(tx, lines);
  for (const [quotaId, { quantity }] of [...perQuota].sort(byId)) {
    query(tx, 'returnQuota').run({ quotaId, quantity });
  }
}

/**
 * What the type's quotas still allow (the least of them), or Infinity for a type without a quota: a
 * buyer can take min(type's available, this), which the waiting list and Proceed's advisory check use.
 */
export function quotaLeftOfType(tx: DbOrTx, ticketTypeId: string): number {
  const row = query(tx, 'quotaLeftOfType').get({ ticketTypeId });
  return row?.left ?? Number.POSITIVE_INFINITY;
}

/** For many types at once (the event page, the ticket selection): only types with a quota appear. */
export function quotaLeftOfTypes(tx: DbOrTx, ticketTypeIds: string[]): Map<string, number> {
  if (ticketTypeIds.length === 0) return new Map();
  const rows = tx
    .select({ ticketTypeId: quotaTicketTypes.ticketTypeId, left: sql<number>`min(${quotas.available})` })
    .from(quotaTicketTypes)
    .innerJoin(quotas, eq(quotas.id, quotaTicketTypes.quotaId))
    .where(inArray(quotaTicketTypes.ticketTypeId, ticketTypeIds))
    .groupBy(quotaTicketTypes.ticketTypeId)
    .all();
  return new Map(rows.map((r) => [r.ticketTypeId, r.left]));
}

function seatsPerQuota(tx: DbOrTx, lines: readonly SeatLine[]) {
  const perQuota = new Map<string, { quantity: number; ticketTypeId: string }>();
  for (const line of lines) {
    const quotaIds =
      line.quotaIds ??
      query(tx, 'quotasOfType')
        .all({ ticketTypeId: line.ticketTypeId })
        .map((r) => r.quotaId);
    for (const quotaId of quotaIds) {
      const seen = perQuota.get(quotaId);
      if (seen) seen.quantity += line.quantity;
      else perQuota.set(quotaId, { quantity: line.quantity, ticketTypeId: line.ticketTypeId });
    }
  }
  return perQuota;
}

function byId([a]: [string, unknown], [b]: [string, unknown]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The refusal when a quota is short, in the words a type's own shortage uses (holds.ts): "Sold Out"
 * when the quota has nothing left, else too few. Read after the UPDATE changed nothing, in the same
 * transaction, so it says why.
 */
function quotaSoldOut(tx: DbOrTx, quotaId: string, ticketTypeId: string) {
  const quota = tx.select({ available: quotas.available }).from(quotas).where(eq(quotas.id, quotaId)).get();
  const type = tx
    .select({ name: ticketTypes.name })
    .from(ticketTypes)
    .where(eq(ticketTypes.id, ticketTypeId))
    .get();
  const name = type?.name ?? 'Tickets';
  if (!quota || quota.available <= 0) return conflict(`${name}: Sold Out`);
  return conflict(`Insufficient tickets available for ${name}`);
}

const p = sql.placeholder;

/** Prepared once per connection, as holds.ts's statements are: these run on every Proceed. */
const builders = {
  quotasOfType: (db: DbOrTx) =>
    db
      .select({ quotaId: quotaTicketTypes.quotaId })
      .from(quotaTicketTypes)
      .where(eq(quotaTicketTypes.ticketTypeId, p('ticketTypeId')))
      .prepare(),
  quotaLeftOfType: (db: DbOrTx) =>
    db
      .select({ left: sql<number>`min(${quotas.available})` })
      .from(quotaTicketTypes)
      .innerJoin(quotas, eq(quotas.id, quotaTicketTypes.quotaId))
      .where(eq(quotaTicketTypes.ticketTypeId, p('ticketTypeId')))
      .prepare(),
  takeQuota: (db: DbOrTx) =>
    db
      .update(quotas)
      .set({ available: sql`${quotas.available} - ${p('quantity')}` })
      .where(and(eq(quotas.id, p('quotaId')), gte(quotas.available, p('quantity'))))
      .prepare(),
  returnQuota: (db: DbOrTx) =>
    db
      .update(quotas)
      .set({ available: sql`${quotas.available} + ${p('quantity')}` })
      .where(eq(quotas.id, p('quotaId')))
      .prepare(),
};

const query = preparedQueries(builders);
