import { randomInt } from 'node:crypto';
import type Database from 'better-sqlite3';
import { and, asc, eq, is, isNull, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { PgDatabase } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { changes, row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
import * as schema from '../../db/schema/index.ts';

/**
 * The draw at opening: everyone who arrived before `opensAt` gets a place from a uniform shuffle
 * (Fisher–Yates with crypto randomness), so arriving early or refreshing gives no edge. Runs once per
 * room: `drawn_at` is set in the same transaction, and a later call finds it set and does nothing.
 * Call inside a write transaction (the admitter's tick, or a join after opening).
 * Returns whether this call drew.
 */
export function drawIfDue(sqlite: Database.Database, eventId: string, now: Date): boolean {
  return runSync(drawSteps(drizzleOf(sqlite), eventId, now));
}

/** `drawIfDue` written once for both engines (ADR 0045). */
export function* drawSteps(tx: DbOrTx, eventId: string, now: Date): Steps<boolean> {
  return (yield* drawnSteps(tx, eventId, now)) === 'drew';
}

/**
 * Draws if due, and says where the room stands after: 'not-drawn' (not open yet), 'drew' (this call),
 * 'drawn' (before). The callers (admission, a join) hold the room's `serialize` key; the draw also
 * claims the room by setting `drawn_at` only where it is still null, so two transactions that both
 * read it null (two servers at the opening instant) draw once: on PostgreSQL the second waits on the
 * first's row lock, then finds it set and changes nothing.
 */
export function* drawnSteps(tx: DbOrTx, eventId: string, now: Date): Steps<'not-drawn' | 'drew' | 'drawn'> {
  const room = yield* row(query(tx, 'room'), { eventId });
  if (!room) return 'not-drawn';
  if (room.drawnAt !== null) return 'drawn';
  if (Date.parse(room.opensAt) > now.getTime()) return 'not-drawn';
  if ((yield* changes(query(tx, 'claim'), { eventId, drawnAt: now.toISOString() })) !== 1) return 'drawn';
  const ids = (yield* rows(query(tx, 'undrawn'), { eventId })).map((r) => r.id);
  shuffle(ids);
  yield* placeSteps(tx, ids);
  return 'drew';
}

/** Fisher–Yates: every order equally likely, given an unbiased source (crypto.randomInt is one). */
export function shuffle<T>(items: T[], randomBelow: (n: number) => number = randomInt): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    const swap = items[i] as T;
    items[i] = items[j] as T;
    items[j] = swap;
  }
  return items;
}

/**
 * `ids[i]` gets place i + 1. The one place the engines want different statements, for speed only (both
 * are valid on both): on SQLite one prepared UPDATE per place (in-process, ≈ 4 µs each, four to six
 * times faster than any batched form measured); on PostgreSQL every statement is a round trip, and a
 * room may hold a million arrivals, so PLACES_PER_STATEMENT at a time, UPDATE … FROM a VALUES list.
 */
function* placeSteps(tx: DbOrTx, ids: number[]): Steps<void> {
  if (!is(tx, PgDatabase)) {
    for (const [index, id] of ids.entries()) yield* changes(query(tx, 'place'), { position: index + 1, id });
    return;
  }
  const { waitingRoomVisitors } = tablesOf(tx);
  for (let start = 0; start < ids.length; start += PLACES_PER_STATEMENT) {
    const chunk = ids.slice(start, start + PLACES_PER_STATEMENT);
    // VALUES columns are named column1, column2; the casts type the parameters.
    const places = sql.join(
      chunk.map((id, i) => sql`(cast(${id} as integer), cast(${start + i + 1} as integer))`),
      sql`, `,
    );
    yield* changes(
      tx
        .update(waitingRoomVisitors)
        .set({ position: sql`places.column2` })
        .from(sql`(values ${places}) as places`)
        .where(eq(waitingRoomVisitors.id, sql`places.column1`)),
    );
  }
}

const PLACES_PER_STATEMENT = 1_000;

/** Drizzle over a raw connection, for `drawIfDue`'s callers that hold one (its tests). */
const drizzleOf = oncePer((sqlite: Database.Database) => drizzle(sqlite, { schema }));

const p = sql.placeholder;

const query = preparedQueries({
  room: (db: DbOrTx) => {
    const { waitingRooms } = tablesOf(db);
    return db
      .select({ opensAt: waitingRooms.opensAt, drawnAt: waitingRooms.drawnAt })
      .from(waitingRooms)
      .where(eq(waitingRooms.eventId, p('eventId')))
      .prepare();
  },
  claim: (db: DbOrTx) => {
    const { waitingRooms } = tablesOf(db);
    return db
      .update(waitingRooms)
      .set({ drawnAt: sql`${p('drawnAt')}` })
      .where(and(eq(waitingRooms.eventId, p('eventId')), isNull(waitingRooms.drawnAt)))
      .prepare();
  },
  // Arrival order, so that a bug in the shuffle would show as arrival order, not as something subtler.
  undrawn: (db: DbOrTx) => {
    const { waitingRoomVisitors } = tablesOf(db);
    return db
      .select({ id: waitingRoomVisitors.id })
      .from(waitingRoomVisitors)
      .where(and(eq(waitingRoomVisitors.eventId, p('eventId')), isNull(waitingRoomVisitors.position)))
      .orderBy(asc(waitingRoomVisitors.id))
      .prepare();
  },
  place: (db: DbOrTx) => {
    const { waitingRoomVisitors } = tablesOf(db);
    return db
      .update(waitingRoomVisitors)
      .set({ position: sql`${p('position')}` })
      .where(eq(waitingRoomVisitors.id, p('id')))
      .prepare();
  },
});
