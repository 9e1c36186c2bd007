import { count, eq } from 'drizzle-orm';
import { WAITING_ROOM_MESSAGES, type WaitingRoomSettings } from '../../../shared/waiting-room.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { badRequest } from '../../errors.ts';
import { waitingRoomKey } from './admit-visitors.ts';

export interface WaitingRoomView {
  enabled: boolean;
  opensAt: string | null;
  admitPerMinute: number | null;
  drawnAt: string | null;
  admittedThrough: number;
  visitors: number;
}

/** The editor's view: the settings, and how the queue is doing once open (on either engine, ADR 0045). */
export function getWaitingRoomSettings(db: DbOrTx, eventId: string): Promise<WaitingRoomView> {
  return runStatements(db, (d) => waitingRoomViewSteps(d, eventId));
}

function* waitingRoomViewSteps(db: DbOrTx, eventId: string): Steps<WaitingRoomView> {
  const { waitingRooms, waitingRoomVisitors } = tablesOf(db);
  const room = yield* row(db.select().from(waitingRooms).where(eq(waitingRooms.eventId, eventId)));
  const visitors = yield* row(
    // PostgreSQL answers a count as text.
    db
      .select({ n: count().mapWith(Number) })
      .from(waitingRoomVisitors)
      .where(eq(waitingRoomVisitors.eventId, eventId)),
  );
  return {
    enabled: room?.enabled ?? false,
    opensAt: room?.opensAt ?? null,
    admitPerMinute: room?.admitPerMinute ?? null,
    drawnAt: room?.drawnAt ?? null,
    admittedThrough: room?.admittedThrough ?? 0,
    visitors: visitors?.n ?? 0,
  };
}

/**
 * Switches an event's waiting room on or off, with its on-sale time and rate. Switching it on needs an
 * on-sale time ahead (the draw happens then). Once the room has opened its time stays as it is: moving
 * it would redraw nothing and only confuse the queue (changing the rate is fine). Switching off lets
 * everyone Proceed without a pass; the visitors' rows stay, so switching on again keeps their places.
 */
export async function updateWaitingRoomSettings(
  db: Db,
  eventId: string,
  settings: Omit<WaitingRoomSettings, 'eventId'>,
  now: Date,
): Promise<WaitingRoomView> {
  await runnerFor(db).write((tx) => waitingRoomSettingsSteps(tx, eventId, settings, now));
  return getWaitingRoomSettings(db, eventId);
}

/**
 * The settings' write, written once for both engines (ADR 0045), under the room's `serialize` key
 * (admit-visitors.ts): whether the room has been drawn decides whether its time may move, so a draw
 * must not commit between reading that and writing the time (on PostgreSQL, another server's draw).
 */
export function* waitingRoomSettingsSteps(
  tx: DbOrTx,
  eventId: string,
  settings: Omit<WaitingRoomSettings, 'eventId'>,
  now: Date,
): Steps<void> {
  const { waitingRooms } = tablesOf(tx);
  const opensAt = new Date(settings.opensAt).toISOString();
  yield* serialize(waitingRoomKey(eventId));
  const current = yield* row(
    tx
      .select({ opensAt: waitingRooms.opensAt, drawnAt: waitingRooms.drawnAt })
      .from(waitingRooms)
      .where(eq(waitingRooms.eventId, eventId)),
  );
  const drawn = !!current?.drawnAt;
  const opensAtChanged = current?.opensAt !== opensAt;
  if (settings.enabled && opensAtChanged && Date.parse(opensAt) <= now.getTime()) {
    throw badRequest(WAITING_ROOM_MESSAGES.opensAtPast, { opensAt: WAITING_ROOM_MESSAGES.opensAtPast });
  }
  const values = {
    enabled: settings.enabled,
    opensAt: drawn ? (current?.opensAt ?? opensAt) : opensAt,
    admitPerMinute: settings.admitPerMinute,
    updatedAt: now.toISOString(),
  };
  yield* changes(
    tx
      .insert(waitingRooms)
      .values({ eventId, ...values })
      .onConflictDoUpdate({ target: waitingRooms.eventId, set: values }),
  );
}
