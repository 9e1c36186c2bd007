import { and, eq, sql } from 'drizzle-orm';
import { WAITING_ROOM_MESSAGES } from '../../../shared/waiting-room.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runnerFor, type TransitionRunner } from '../../db/engine/runner.ts';
import { row, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { lastPlaceSteps, waitingRoomKey } from './admit-visitors.ts';
import { drawnSteps } from './draw.ts';
import { signQueueToken } from './tokens.ts';

/**
 * A signed-in buyer takes (or finds) their place in an event's waiting room: one row per account and
 * event, so a second tab or device gets the same place and the same token. Before opening the place is
 * left for the draw; after it, the next place in arrival order (drawing first, if nobody has yet).
 * Answers the queue token the waiting page keeps and sends with every status check.
 */
export function joinWaitingRoom(
  deps: Pick<AppDeps, 'db' | 'appSecret' | 'clock'>,
  userId: string,
  eventId: string,
): Promise<{ token: string }> {
  return joinWaitingRoomOn(runnerFor(deps.db), deps.appSecret, userId, eventId, deps.clock.now());
}

/** `joinWaitingRoom` on either engine (ADR 0045). */
export async function joinWaitingRoomOn(
  run: TransitionRunner,
  appSecret: string,
  userId: string,
  eventId: string,
  now: Date,
): Promise<{ token: string }> {
  const existing = await run.read((db) => placeOfAccountSteps(db, eventId, userId));
  if (existing !== undefined)
    return { token: signQueueToken(appSecret, { eventId, visitorId: existing, userId }) };
  const room = await run.read((db) => row(query(db, 'room'), { eventId }));
  if (!room?.enabled) throw notFound(WAITING_ROOM_MESSAGES.notWaitingRoom);
  const visitorId = await run.write((tx) => joinSteps(tx, eventId, userId, now));
  return { token: signQueueToken(appSecret, { eventId, visitorId, userId }) };
}

/**
 * The join's write, under the room's `serialize` key (admit-visitors.ts): a place after opening is the
 * last one plus one, which two joins must not both read, and a join before opening must not slip its
 * unplaced row past a draw that is choosing places. Returns the visitor's row id.
 */
function* joinSteps(tx: DbOrTx, eventId: string, userId: string, now: Date): Steps<number> {
  yield* serialize(waitingRoomKey(eventId));
  // A second tab may have joined between the read before and this transaction.
  const raced = yield* placeOfAccountSteps(tx, eventId, userId);
  if (raced !== undefined) return raced;
  const drawn = (yield* drawnSteps(tx, eventId, now)) !== 'not-drawn';
  const position = drawn ? (yield* lastPlaceSteps(tx, eventId)) + 1 : null;
  const inserted = yield* row(query(tx, 'insert'), {
    eventId,
    userId,
    arrivedAt: now.toISOString(),
    position,
  });
  return inserted!.id;
}

function* placeOfAccountSteps(db: DbOrTx, eventId: string, userId: string): Steps<number | undefined> {
  return (yield* row(query(db, 'find'), { eventId, userId }))?.id;
}

const p = sql.placeholder;

const query = preparedQueries({
  find: (db: DbOrTx) => {
    const { waitingRoomVisitors } = tablesOf(db);
    return db
      .select({ id: waitingRoomVisitors.id })
      .from(waitingRoomVisitors)
      .where(and(eq(waitingRoomVisitors.eventId, p('eventId')), eq(waitingRoomVisitors.userId, p('userId'))))
      .prepare();
  },
  room: (db: DbOrTx) => {
    const { waitingRooms } = tablesOf(db);
    return db
      .select({ enabled: waitingRooms.enabled })
      .from(waitingRooms)
      .where(eq(waitingRooms.eventId, p('eventId')))
      .prepare();
  },
  insert: (db: DbOrTx) => {
    const { waitingRoomVisitors } = tablesOf(db);
    return db
      .insert(waitingRoomVisitors)
      .values({
        eventId: sql`${p('eventId')}`,
        userId: sql`${p('userId')}`,
        arrivedAt: sql`${p('arrivedAt')}`,
        position: sql`${p('position')}`,
      })
      .returning({ id: waitingRoomVisitors.id })
      .prepare();
  },
});
