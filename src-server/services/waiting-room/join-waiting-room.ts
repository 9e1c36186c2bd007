import type Database from 'better-sqlite3';
import { WAITING_ROOM_MESSAGES } from '../../../shared/waiting-room.ts';
import { oncePer } from '../../db/once-per.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { drawIfDue } from './draw.ts';
import { signQueueToken } from './tokens.ts';

/**
 * A signed-in buyer takes (or finds) their place in an event's waiting room: one row per account and
 * event, so a second tab or device gets the same place and the same token. Before opening the place is
 * left for the draw; after it, the next place in arrival order (drawing first, if nobody has yet).
 * Answers the queue token the waiting page keeps and sends with every status check.
 */
export async function joinWaitingRoom(
  deps: Pick<AppDeps, 'db' | 'appSecret' | 'clock'>,
  userId: string,
  eventId: string,
): Promise<{ token: string }> {
  const sqlite = deps.db.$client;
  const s = statements(sqlite);
  const existing = s.find.get(eventId, userId) as number | undefined;
  if (existing !== undefined)
    return { token: signQueueToken(deps.appSecret, { eventId, visitorId: existing, userId }) };
  const room = s.room.get(eventId) as { enabled: number } | undefined;
  if (!room?.enabled) throw notFound(WAITING_ROOM_MESSAGES.notWaitingRoom);
  const now = deps.clock.now();
  const visitorId = await writeTransaction(deps.db, () => {
    // A second tab may have joined between the read above and this transaction.
    const raced = s.find.get(eventId, userId) as number | undefined;
    if (raced !== undefined) return raced;
    const drawn = drawIfDue(sqlite, eventId, now) || (s.drawnAt.get(eventId) as string | null) !== null;
    const position = drawn ? ((s.lastPosition.get(eventId) as number | null) ?? 0) + 1 : null;
    return Number(s.insert.run(eventId, userId, now.toISOString(), position).lastInsertRowid);
  });
  return { token: signQueueToken(deps.appSecret, { eventId, visitorId, userId }) };
}

const statements = oncePer((sqlite: Database.Database) => ({
  find: sqlite.prepare('select id from waiting_room_visitors where event_id = ? and user_id = ?').pluck(),
  room: sqlite.prepare('select enabled from waiting_rooms where event_id = ?'),
  drawnAt: sqlite.prepare('select drawn_at from waiting_rooms where event_id = ?').pluck(),
  lastPosition: sqlite.prepare('select max(position) from waiting_room_visitors where event_id = ?').pluck(),
  insert: sqlite.prepare(
    'insert into waiting_room_visitors (event_id, user_id, arrived_at, position) values (?, ?, ?, ?)',
  ),
}));
