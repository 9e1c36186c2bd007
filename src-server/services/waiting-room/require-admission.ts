import { WAITING_ROOM_MESSAGES } from '../../../shared/waiting-room.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Steps } from '../../db/engine/steps.ts';
import { conflict, forbidden } from '../../errors.ts';
import type { WaitingRoomSwitch } from './read-waiting-room.ts';
import { admissionStateSteps } from './require-admitted-account.ts';
import { admissionPassValid } from './tokens.ts';

/**
 * Proceed's check for an event with its waiting room on: nothing before the on-sale time, and after it
 * only with a valid admission pass for this account and event (a pass is issued by the status check
 * once the visitor's place is reached). Reads the room fresh, not from the status checks' cache:
 * switching the room off must let buyers through at once. Written once for both engines (ADR 0045):
 * the room is read by `admissionStateSteps`, one primary-key read when the room is off (every event
 * without one), as before; with the room on the pass still decides, as the page that sent it expects.
 */
export function* requireAdmissionSteps(
  db: DbOrTx,
  deps: { appSecret: string; now: Date },
  eventId: string,
  userId: string,
  pass: string | undefined,
  /** The room as the caller has just read it with the event (Proceed), so it is not read twice. */
  known?: { room: WaitingRoomSwitch | undefined },
): Steps<void> {
  if (known) {
    if (!known.room?.enabled) return;
    if (deps.now.getTime() < Date.parse(known.room.opensAt)) throw conflict(WAITING_ROOM_MESSAGES.notOpenYet);
  } else {
    const state = yield* admissionStateSteps(db, eventId, userId, deps.now);
    if (state === 'no-room') return;
    if (state === 'not-open') throw conflict(WAITING_ROOM_MESSAGES.notOpenYet);
  }
  if (!admissionPassValid(deps.appSecret, pass, { eventId, userId, now: deps.now })) {
    throw forbidden(WAITING_ROOM_MESSAGES.passRequired);
  }
}
