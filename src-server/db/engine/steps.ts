import { type SQL, sql } from 'drizzle-orm';

/**
 * Transitions written once for both engines (ADR 0045). A transition is a generator that yields each
 * statement it needs and receives that statement's result back:
 *
 *     function* takeSeat(tx: WriteTx, id: string) {
 *       const left = yield* changes(tx.update(ticketTypes).set(…).where(…));
 *       if (left !== 1) throw soldOut();
 *     }
 *
 * SQLite runs it with `runSync`: every statement executes on the spot, so the whole transition stays
 * inside better-sqlite3's synchronous transaction and nothing can interleave (ADR 0010's group commit
 * is untouched). PostgreSQL runs the same generator with `runAsync`, awaiting each statement on the
 * transaction's pooled connection. A failed statement is thrown back into the generator in both, so
 * its try/catch (a savepoint, a friendlier message) works alike.
 *
 * What the engines do differently stays a statement kind the drivers interpret: `serialize(key)` is a
 * transaction-scoped advisory lock on PostgreSQL and nothing on SQLite, whose write transactions
 * already run one at a time.
 */

/** One statement of a transition, as the drivers execute it. */
export type Statement =
  | { readonly kind: 'rows' | 'row' | 'changes'; readonly query: unknown; readonly params?: object }
  | { readonly kind: 'serialize'; readonly key: string }
  | { readonly kind: 'savepoint'; readonly phase: SavepointPhase; readonly tx: unknown };

type SavepointPhase = 'begin' | 'release' | 'rollback';

export type Steps<T> = Generator<Statement, T, unknown>;

/** Every row a select (or a write with `returning`) gives. */
export function* rows<T>(query: { all(params?: never): T[] }, params?: object): Steps<T[]> {
  return (yield { kind: 'rows', query, params }) as T[];
}

/** The first row a select gives, or undefined. */
export function* row<T>(
  query: { get(params?: never): T | undefined },
  params?: object,
): Steps<T | undefined> {
  return (yield { kind: 'row', query, params }) as T | undefined;
}

/** How many rows a write changed: what a conditional UPDATE's caller checks. */
export function* changes(
  query: { run(params?: never): { changes: number } },
  params?: object,
): Steps<number> {
  return (yield { kind: 'changes', query, params }) as number;
}

/**
 * Writes under the same `key` (a limit's counter, one issuer's invoice series) happen one at a time
 * until the transaction ends. Needed where a transition reads a count and then writes on it.
 */
export function* serialize(key: string): Steps<void> {
  yield { kind: 'serialize', key };
}

/**
 * `steps` inside a savepoint of the open transaction: when they throw, what they wrote is undone and
 * the error goes on to the caller, whose transaction carries on (on PostgreSQL a failed statement
 * otherwise aborts the whole transaction). `tx` is the transaction the steps run in.
 */
export function* savepoint<T>(tx: object, steps: Steps<T>): Steps<T> {
  yield { kind: 'savepoint', phase: 'begin', tx };
  let result: T;
  try {
    result = yield* steps;
  } catch (error) {
    // ROLLBACK TO keeps the savepoint open; it is released as on success.
    yield { kind: 'savepoint', phase: 'rollback', tx };
    yield { kind: 'savepoint', phase: 'release', tx };
    throw error;
  }
  yield { kind: 'savepoint', phase: 'release', tx };
  return result;
}

// One name serves nested savepoints on both engines: RELEASE and ROLLBACK TO take the innermost.
const SAVEPOINT_SQL: Record<SavepointPhase, string> = {
  begin: 'savepoint steps',
  release: 'release savepoint steps',
  rollback: 'rollback to savepoint steps',
};

type SyncQuery = {
  all(params?: object): unknown[];
  get(params?: object): unknown;
  run(params?: object): { changes: number };
};

/** SQLite's driver: each statement runs at once on better-sqlite3, inside the caller's transaction. */
export function runSync<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    let result: unknown;
    try {
      result = executeSync(next.value);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}

function executeSync(statement: Statement): unknown {
  if (statement.kind === 'serialize') return undefined;
  if (statement.kind === 'savepoint') {
    // Drizzle's SQLite `run` executes at once on better-sqlite3, on the transaction's connection.
    (statement.tx as { run(query: SQL): unknown }).run(sql.raw(SAVEPOINT_SQL[statement.phase]));
    return undefined;
  }
  const query = statement.query as SyncQuery;
  if (statement.kind === 'rows') return query.all(statement.params);
  if (statement.kind === 'row') return query.get(statement.params);
  return query.run(statement.params).changes;
}

/** What the PostgreSQL driver needs of the transaction: raw SQL for the engine's own statements. */
export interface AsyncSession {
  execute(query: SQL): Promise<unknown>;
}

type AsyncQuery = PromiseLike<unknown> & { execute?: (params?: object) => Promise<unknown> };

/** PostgreSQL's driver: each statement awaited on the transaction's connection, in order. */
export async function runAsync<T>(steps: Steps<T>, session: AsyncSession): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let result: unknown;
    try {
      result = await executeAsync(next.value, session);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}

async function executeAsync(statement: Statement, session: AsyncSession): Promise<unknown> {
  if (statement.kind === 'serialize') {
    // hashtextextended: a 64-bit key from the text, as pg_advisory_xact_lock takes.
    await session.execute(sql`select pg_advisory_xact_lock(hashtextextended(${statement.key}, 0))`);
    return undefined;
  }
  if (statement.kind === 'savepoint') {
    await session.execute(sql.raw(SAVEPOINT_SQL[statement.phase]));
    return undefined;
  }
  const query = statement.query as AsyncQuery;
  // A prepared query runs with its placeholders' values; a built one is awaited.
  const result = statement.params && query.execute ? await query.execute(statement.params) : await query;
  if (statement.kind === 'rows') return result;
  if (statement.kind === 'row') return (result as unknown[])[0];
  return (result as { rowCount: number | null }).rowCount ?? 0;
}
