import { and, eq, gt, isNull, lte, max, sql } from 'drizzle-orm';
import { DEFAULT_ADMIT_PER_MINUTE } from '../../../shared/waiting-room.ts';
import type { BackgroundJob } from '../../background-job.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runnerFor, type TransitionRunner } from '../../db/engine/runner.ts';
import { changes, row, rows, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
import type { AppDeps } from '../../deps.ts';
import { drawSteps } from './draw.ts';

/**
 * Every second: draws the rooms that have just opened, and moves each open room's `admitted_through`
 * on by one place per `60 000 / rate` ms. The room's `updated_at` (never before `opens_at`) is its
 * admission clock: it moves on by exactly the places admitted, so the rate holds whatever the tick's
 * timing, and it is reset to now while the queue is empty, so an empty hour does not bank a burst of
 * admissions for whoever comes next.
 */
export const waitingRoomAdmitterJob: BackgroundJob = {
  name: 'waiting-room-admitter',
  intervalMs: 1_000,
  runAtStart: true,
  run: async (deps) => {
    await admitDueVisitors(deps);
  },
};

export function admitDueVisitors(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<number> {
  return admitDueVisitorsOn(runnerFor(deps.db), deps.clock.now());
}

/**
 * One admission tick on either engine: each open room in its own write transaction. Safe to run on
 * several servers at once (the job also runs on one server at a time, ADR 0035, but a tick may outlive
 * its leadership): admission reads and moves the room's clock under the room's `serialize` key, so a
 * second tick finds the clock already moved and admits only what is due since.
 */
export async function admitDueVisitorsOn(run: TransitionRunner, now: Date): Promise<number> {
  const at = now.toISOString();
  let admitted = 0;
  for (const room of await run.read((db) => rows(query(db, 'openRooms'), { now: at }))) {
    admitted += await run.write((tx) => admitSteps(tx, room.eventId, now));
  }
  return admitted;
}

/** One room's admission, written once for both engines (ADR 0045). Returns how many places it admitted. */
export function* admitSteps(tx: DbOrTx, eventId: string, now: Date): Steps<number> {
  yield* serialize(waitingRoomKey(eventId));
  yield* drawSteps(tx, eventId, now);
  // Read again inside the transaction: the settings or another server may have moved it.
  const room = yield* row(query(tx, 'room'), { eventId });
  if (!room) return 0;
  const last = yield* lastPlaceSteps(tx, eventId);
  const intervalMs = 60_000 / (room.admitPerMinute ?? DEFAULT_ADMIT_PER_MINUTE);
  const clock = Math.max(Date.parse(room.opensAt), Date.parse(room.updatedAt));
  const due = Math.floor((now.getTime() - clock) / intervalMs);
  if (due < 1) return 0;
  if (room.admittedThrough >= last) {
    yield* changes(query(tx, 'moveClock'), {
      through: room.admittedThrough,
      updatedAt: now.toISOString(),
      eventId,
    });
    return 0;
  }
  const through = Math.min(last, room.admittedThrough + due);
  const nextClock = through === last ? now.getTime() : clock + (through - room.admittedThrough) * intervalMs;
  yield* changes(query(tx, 'moveClock'), {
    through,
    updatedAt: new Date(nextClock).toISOString(),
    eventId,
  });
  yield* changes(query(tx, 'markAdmitted'), {
    admittedAt: now.toISOString(),
    eventId,
    after: room.admittedThrough,
    through,
  });
  return through - room.admittedThrough;
}

/**
 * What every transition that hands out or admits places in one room serialises on (the draw, a join
 * after opening, admission): nothing on SQLite, whose write transactions run one at a time; an advisory
 * lock on PostgreSQL, one room at a time, so another event's room never waits.
 */
export function waitingRoomKey(eventId: string): string {
  return `waiting-room:${eventId}`;
}

/** The room's last place given (0 before anyone joined): admission's end, and a late joiner's place − 1. */
export function* lastPlaceSteps(tx: DbOrTx, eventId: string): Steps<number> {
  return (yield* row(query(tx, 'lastPosition'), { eventId }))?.last ?? 0;
}

const p = sql.placeholder;

const query = preparedQueries({
  openRooms: (db: DbOrTx) => {
    const { waitingRooms } = tablesOf(db);
    return db
      .select({ eventId: waitingRooms.eventId })
      .from(waitingRooms)
      .where(and(eq(waitingRooms.enabled, true), lte(waitingRooms.opensAt, sql`${p('now')}`)))
      .prepare();
  },
  room: (db: DbOrTx) => {
    const { waitingRooms } = tablesOf(db);
    return db
      .select({
        opensAt: waitingRooms.opensAt,
        admitPerMinute: waitingRooms.admitPerMinute,
        admittedThrough: waitingRooms.admittedThrough,
        updatedAt: waitingRooms.updatedAt,
      })
      .from(waitingRooms)
      .where(and(eq(waitingRooms.eventId, p('eventId')), eq(waitingRooms.enabled, true)))
      .prepare();
  },
  lastPosition: (db: DbOrTx) => {
    const { waitingRoomVisitors } = tablesOf(db);
    return db
      .select({ last: max(waitingRoomVisitors.position) })
      .from(waitingRoomVisitors)
      .where(eq(waitingRoomVisitors.eventId, p('eventId')))
      .prepare();
  },
  moveClock: (db: DbOrTx) => {
    const { waitingRooms } = tablesOf(db);
    return db
      .update(waitingRooms)
      .set({ admittedThrough: sql`${p('through')}`, updatedAt: sql`${p('updatedAt')}` })
      .where(eq(waitingRooms.eventId, p('eventId')))
      .prepare();
  },
  markAdmitted: (db: DbOrTx) => {
    const { waitingRoomVisitors } = tablesOf(db);
    return db
      .update(waitingRoomVisitors)
      .set({ admittedAt: sql`${p('admittedAt')}` })
      .where(
        and(
          eq(waitingRoomVisitors.eventId, p('eventId')),
          gt(waitingRoomVisitors.position, p('after')),
          lte(waitingRoomVisitors.position, p('through')),
          isNull(waitingRoomVisitors.admittedAt),
        ),
      )
      .prepare();
  },
});
