import { and, eq } from 'drizzle-orm';
import { WAITING_ROOM_MESSAGES } from '../../../shared/waiting-room.ts';
import type { DbOrTx } from '../../db/client.ts';
import { row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { conflict, forbidden } from '../../errors.ts';

/** Whether an account may buy for an event now, as far as its waiting room is concerned. */
export type AdmissionState = 'no-room' | 'not-open' | 'admitted' | 'not-admitted';

/**
 * The waiting list's gate while an event's waiting room is on (joining, paying an offer, and being
 * offered seats at all): the same condition as Proceed's admission pass (require-admission.ts), read
 * from the queue itself. A pass is issued to exactly the accounts whose place has been reached, and a
 * reached place stays reached, so "this account's place is admitted" is what the pass certifies,
 * without it: the offer page is opened from a mail, perhaps on another device and long after the pass
 * lapsed, and an offer is made by the server where no request carries one. Reads the room fresh (two
 * indexed reads), not the status checks' cache: switching the room off must let the list through at once.
 */
export function admissionStateOf(
  db: Pick<DbOrTx, 'select'>,
  eventId: string,
  userId: string,
  now: Date,
): AdmissionState {
  return runSync(admissionStateSteps(db as DbOrTx, eventId, userId, now));
}

/** `admissionStateOf` written once for both engines (ADR 0045): two reads, in or outside a transaction. */
export function* admissionStateSteps(
  db: DbOrTx,
  eventId: string,
  userId: string,
  now: Date,
): Steps<AdmissionState> {
  const { waitingRooms, waitingRoomVisitors } = tablesOf(db);
  const room = yield* row(
    db
      .select({
        enabled: waitingRooms.enabled,
        opensAt: waitingRooms.opensAt,
        admittedThrough: waitingRooms.admittedThrough,
      })
      .from(waitingRooms)
      .where(eq(waitingRooms.eventId, eventId)),
  );
  if (!room?.enabled) return 'no-room';
  if (now.getTime() < Date.parse(room.opensAt)) return 'not-open';
  const place = yield* row(
    db
      .select({ position: waitingRoomVisitors.position })
      .from(waitingRoomVisitors)
      .where(and(eq(waitingRoomVisitors.eventId, eventId), eq(waitingRoomVisitors.userId, userId))),
  );
  return place?.position != null && place.position <= room.admittedThrough ? 'admitted' : 'not-admitted';
}

/** Throws what Proceed answers without a pass: 409 before the on-sale time, 403 until admitted. */
export function requireAdmittedAccount(
  db: Pick<DbOrTx, 'select'>,
  eventId: string,
  userId: string,
  now: Date,
): void {
  requireAdmission(admissionStateOf(db, eventId, userId, now));
}

/** What `requireAdmittedAccount` throws for an admission state read as a step (admissionStateSteps). */
export function requireAdmission(state: AdmissionState): void {
  if (state === 'not-open') throw conflict(WAITING_ROOM_MESSAGES.notOpenYet);
  if (state === 'not-admitted') throw forbidden(WAITING_ROOM_MESSAGES.passRequired);
}
