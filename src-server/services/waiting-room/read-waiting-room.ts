import type Database from 'better-sqlite3';
import { oncePer } from '../../db/once-per.ts';

export interface WaitingRoomSwitch {
  enabled: boolean;
  /** The on-sale instant (UTC ISO-8601). */
  opensAt: string;
}

/**
 * The event's waiting room as stored, read fresh (one primary-key read through a statement prepared
 * once per database), not from the status checks' cache: switching the room off must show at once.
 * Both Proceed's admission check and the ticket options take it on every request.
 */
export function readWaitingRoom(sqlite: Database.Database, eventId: string): WaitingRoomSwitch | undefined {
  const room = roomStatement(sqlite).get(eventId) as { enabled: number; opensAt: string } | undefined;
  return room && { enabled: room.enabled === 1, opensAt: room.opensAt };
}

const roomStatement = oncePer((sqlite: Database.Database) =>
  sqlite.prepare('select enabled, opens_at as opensAt from waiting_rooms where event_id = ?'),
);
