import type Database from 'better-sqlite3';
import { DEFAULT_ADMIT_PER_MINUTE } from '../../../shared/waiting-room.ts';
import type { BackgroundJob } from '../../background-job.ts';
import { oncePer } from '../../db/once-per.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { drawIfDue } from './draw.ts';

interface OpenRoom {
  eventId: string;
  opensAt: string;
  admitPerMinute: number | null;
  admittedThrough: number;
  updatedAt: string;
}

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

export async function admitDueVisitors(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<number> {
  const sqlite = deps.db.$client;
  const s = statements(sqlite);
  const now = deps.clock.now();
  let admitted = 0;
  for (const room of s.openRooms.all(now.toISOString()) as OpenRoom[]) {
    admitted += await writeTransaction(deps.db, () => admitInRoom(sqlite, room.eventId, now));
  }
  return admitted;
}

function admitInRoom(sqlite: Database.Database, eventId: string, now: Date): number {
  const s = statements(sqlite);
  drawIfDue(sqlite, eventId, now);
  // Read again inside the transaction: the settings or another process may have moved it.
  const room = s.room.get(eventId) as OpenRoom | undefined;
  if (!room) return 0;
  const last = (s.lastPosition.get(eventId) as number | null) ?? 0;
  const intervalMs = 60_000 / (room.admitPerMinute ?? DEFAULT_ADMIT_PER_MINUTE);
  const clock = Math.max(Date.parse(room.opensAt), Date.parse(room.updatedAt));
  const due = Math.floor((now.getTime() - clock) / intervalMs);
  if (due < 1) return 0;
  if (room.admittedThrough >= last) {
    s.moveClock.run(room.admittedThrough, now.toISOString(), eventId);
    return 0;
  }
  const through = Math.min(last, room.admittedThrough + due);
  const nextClock = through === last ? now.getTime() : clock + (through - room.admittedThrough) * intervalMs;
  s.moveClock.run(through, new Date(nextClock).toISOString(), eventId);
  s.markAdmitted.run(now.toISOString(), eventId, room.admittedThrough, through);
  return through - room.admittedThrough;
}

const statements = oncePer((sqlite: Database.Database) => ({
  openRooms: sqlite.prepare(
    'select event_id as eventId from waiting_rooms where enabled = 1 and opens_at <= ?',
  ),
  room: sqlite.prepare(
    `select event_id as eventId, opens_at as opensAt, admit_per_minute as admitPerMinute,
       admitted_through as admittedThrough, updated_at as updatedAt
     from waiting_rooms where event_id = ? and enabled = 1`,
  ),
  lastPosition: sqlite.prepare('select max(position) from waiting_room_visitors where event_id = ?').pluck(),
  moveClock: sqlite.prepare(
    'update waiting_rooms set admitted_through = ?, updated_at = ? where event_id = ?',
  ),
  markAdmitted: sqlite.prepare(
    `update waiting_room_visitors set admitted_at = ?
     where event_id = ? and position > ? and position <= ? and admitted_at is null`,
  ),
}));
