import { and, eq, gte, inArray, is, type SQL, sql } from 'drizzle-orm';
import { PgDatabase } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { changes, row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
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
 * `QUOTA_IDS_OF_TYPE` in the dialect of `db`'s engine: PostgreSQL has no `json_group_array`, and its
 * driver gives a text[] as an array already.
 */
export function quotaIdsOfType(db: object): SQL.Aliased<string[]> | SQL<string[]> {
  if (!is(db, PgDatabase)) return QUOTA_IDS_OF_TYPE as unknown as SQL<string[]>;
  return sql<string[]>`(select coalesce(array_agg(quota_ticket_types.quota_id), '{}')
    from quota_ticket_types where quota_ticket_types.ticket_type_id = ticket_types.id)`;
}

/**
 * Takes the lines' seats from their types' quotas, inside the caller's transaction, after the types'
 * own seats: one conditional UPDATE per quota (never below zero), quotas in id order (two holds that
 * share two quotas take them in the same order, so two PostgreSQL transactions never deadlock on
 * them). Throws the spec's message for the first line whose quota has too few left, which rolls the
 * caller's transaction (or savepoint) back, the types' seats included. Written once for both engines
 * (ADR 0045); `takeQuotaSeatsIn` is SQLite's synchronous call.
 */
export function* takeQuotaSeatsSteps(tx: DbOrTx, lines: readonly SeatLine[]): Steps<void> {
  const perQuota = yield* seatsPerQuota(tx, lines);
  if (perQuota.size === 0) return;
  for (const [quotaId, { quantity, ticketTypeId }] of [...perQuota].sort(byId)) {
    const taken = yield* changes(query(tx, 'takeQuota'), { quotaId, quantity });
    if (taken !== 1) throw yield* quotaSoldOut(tx, quotaId, ticketTypeId);
  }
}

export function takeQuotaSeatsIn(tx: DbOrTx, lines: readonly SeatLine[]): void {
  runSync(takeQuotaSeatsSteps(tx, lines));
}

/** Gives the lines' seats back to their types' quotas (in id order), inside the caller's transaction. */
export function* returnQuotaSeatsSteps(tx: DbOrTx, lines: readonly SeatLine[]): Steps<void> {
  const perQuota = yield* seatsPerQuota(tx, lines);
  for (const [quotaId, { quantity }] of [...perQuota].sort(byId)) {
    yield* changes(query(tx, 'returnQuota'), { quotaId, quantity });
  }
}

/**
 * What the type's quotas still allow (the least of them), or Infinity for a type without a quota: a
 * buyer can take min(type's available, this), which the waiting list and Proceed's advisory check use.
 */
export function quotaLeftOfType(tx: DbOrTx, ticketTypeId: string): number {
  return runSync(quotaLeftOfTypeSteps(tx, ticketTypeId));
}

/** `quotaLeftOfType` written once for both engines (ADR 0045). */
export function* quotaLeftOfTypeSteps(tx: DbOrTx, ticketTypeId: string): Steps<number> {
  const left = yield* row(query(tx, 'quotaLeftOfType'), { ticketTypeId });
  return left?.left ?? Number.POSITIVE_INFINITY;
}

/**
 * For many types at once (the ticket selection): only types with a quota appear. Written once for both
 * engines (ADR 0045).
 */
export function* quotaLeftOfTypesSteps(tx: DbOrTx, ticketTypeIds: string[]): Steps<Map<string, number>> {
  if (ticketTypeIds.length === 0) return new Map();
  const { quotas, quotaTicketTypes } = tablesOf(tx);
  const found = yield* rows(
    tx
      .select({ ticketTypeId: quotaTicketTypes.ticketTypeId, left: sql<number>`min(${quotas.available})` })
      .from(quotaTicketTypes)
      .innerJoin(quotas, eq(quotas.id, quotaTicketTypes.quotaId))
      .where(inArray(quotaTicketTypes.ticketTypeId, ticketTypeIds))
      .groupBy(quotaTicketTypes.ticketTypeId),
  );
  return new Map(found.map((r) => [r.ticketTypeId, Number(r.left)]));
}

function* seatsPerQuota(tx: DbOrTx, lines: readonly SeatLine[]) {
  const perQuota = new Map<string, { quantity: number; ticketTypeId: string }>();
  for (const line of lines) {
    const quotaIds =
      line.quotaIds ??
      (yield* rows(query(tx, 'quotasOfType'), { ticketTypeId: line.ticketTypeId })).map((r) => r.quotaId);
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
function* quotaSoldOut(tx: DbOrTx, quotaId: string, ticketTypeId: string) {
  const { quotas, ticketTypes } = tablesOf(tx);
  const quota = yield* row(
    tx.select({ available: quotas.available }).from(quotas).where(eq(quotas.id, quotaId)),
  );
  const type = yield* row(
    tx.select({ name: ticketTypes.name }).from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId)),
  );
  const name = type?.name ?? 'Tickets';
  if (!quota || quota.available <= 0) return conflict(`${name}: Sold Out`);
  return conflict(`Insufficient tickets available for ${name}`);
}

const p = sql.placeholder;

/**
 * Prepared once per connection, as holds.ts's statements are: these run on every Proceed. Built on the
 * tables of the engine `db` runs on (on PostgreSQL, once per transaction).
 */
const builders = {
  quotasOfType: (db: DbOrTx) => {
    const { quotaTicketTypes } = tablesOf(db);
    return db
      .select({ quotaId: quotaTicketTypes.quotaId })
      .from(quotaTicketTypes)
      .where(eq(quotaTicketTypes.ticketTypeId, p('ticketTypeId')))
      .prepare();
  },
  quotaLeftOfType: (db: DbOrTx) => {
    const { quotas, quotaTicketTypes } = tablesOf(db);
    return db
      .select({ left: sql<number>`min(${quotas.available})` })
      .from(quotaTicketTypes)
      .innerJoin(quotas, eq(quotas.id, quotaTicketTypes.quotaId))
      .where(eq(quotaTicketTypes.ticketTypeId, p('ticketTypeId')))
      .prepare();
  },
  takeQuota: (db: DbOrTx) => {
    const { quotas } = tablesOf(db);
    return db
      .update(quotas)
      .set({ available: sql`${quotas.available} - ${p('quantity')}` })
      .where(and(eq(quotas.id, p('quotaId')), gte(quotas.available, p('quantity'))))
      .prepare();
  },
  returnQuota: (db: DbOrTx) => {
    const { quotas } = tablesOf(db);
    return db
      .update(quotas)
      .set({ available: sql`${quotas.available} + ${p('quantity')}` })
      .where(eq(quotas.id, p('quotaId')))
      .prepare();
  },
};

const query = preparedQueries(builders);
