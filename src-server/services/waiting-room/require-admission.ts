import type Database from 'better-sqlite3';
import { WAITING_ROOM_MESSAGES } from '../../../shared/waiting-room.ts';
import { conflict, forbidden } from '../../errors.ts';
import { readWaitingRoom, type WaitingRoomSwitch } from './read-waiting-room.ts';
import { admissionPassValid } from './tokens.ts';

/**
 * Proceed's check for an event with its waiting room on: nothing before the on-sale time, and after it
 * only with a valid admission pass for this account and event (a pass is issued by the status check
 * once the visitor's place is reached). Reads the room fresh (one primary-key read), not from the
 * status checks' cache: switching the room off must let buyers through at once.
 */
export function requireAdmission(
  deps: { sqlite: Database.Database; appSecret: string; now: Date },
  eventId: string,
  userId: string,
  pass: string | undefined,
  /** The room as the caller has just read it with the event (Proceed), so it is not read twice. */
  known?: { room: WaitingRoomSwitch | undefined },
): void {
  const room = known ? known.room : readWaitingRoom(deps.sqlite, eventId);
  if (!room?.enabled) return;
  if (deps.now.getTime() < Date.parse(room.opensAt)) throw conflict(WAITING_ROOM_MESSAGES.notOpenYet);
  if (!admissionPassValid(deps.appSecret, pass, { eventId, userId, now: deps.now })) {
    throw forbidden(WAITING_ROOM_MESSAGES.passRequired);
  }
}
