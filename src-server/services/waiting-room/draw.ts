import { randomInt } from 'node:crypto';
import type Database from 'better-sqlite3';
import { oncePer } from '../../db/once-per.ts';

/**
 * The draw at opening: everyone who arrived before `opensAt` gets a place from a uniform shuffle
 * (Fisher–Yates with crypto randomness), so arriving early or refreshing gives no edge. Runs once per
 * room: `drawn_at` is set in the same transaction, and a later call finds it set and does nothing.
 * Call inside a write transaction (the admitter's tick, or a join after opening).
 * Returns whether this call drew.
 */
export function drawIfDue(sqlite: Database.Database, eventId: string, now: Date): boolean {
  const s = statements(sqlite);
  const room = s.room.get(eventId) as { opensAt: string; drawnAt: string | null } | undefined;
  if (!room || room.drawnAt !== null || Date.parse(room.opensAt) > now.getTime()) return false;
  const ids = s.undrawn.all(eventId) as number[];
  shuffle(ids);
  ids.forEach((id, index) => {
    s.place.run(index + 1, id);
  });
  s.markDrawn.run(now.toISOString(), eventId);
  return true;
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

const statements = oncePer((sqlite: Database.Database) => ({
  room: sqlite.prepare(
    'select opens_at as opensAt, drawn_at as drawnAt from waiting_rooms where event_id = ?',
  ),
  // Arrival order, so that a bug in the shuffle would show as arrival order, not as something subtler.
  undrawn: sqlite
    .prepare('select id from waiting_room_visitors where event_id = ? and position is null order by id')
    .pluck(),
  place: sqlite.prepare('update waiting_room_visitors set position = ? where id = ?'),
  markDrawn: sqlite.prepare('update waiting_rooms set drawn_at = ? where event_id = ?'),
}));
