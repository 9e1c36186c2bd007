import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { type CheckInRecord, listCheckInsSteps as listScansSteps } from '../gate/list-check-ins.ts';

export interface CheckInHistory {
  checkedIn: number;
  allowed: number;
  /** The gate's scan log for this booking, oldest first: every admission and undo, where and by whom. */
  entries: CheckInRecord[];
}

/**
 * A booking's check-in history for the console: its counters, and every admission and undo at the gate.
 * Written once for both engines (ADR 0045), read in the booking page's one snapshot.
 */
export function* listBookingCheckInsSteps(db: DbOrTx, bookingId: string): Steps<CheckInHistory> {
  const { bookings } = tablesOf(db);
  const found = yield* row(
    db
      .select({ checkedIn: bookings.numberOfUserCheckedIn, allowed: bookings.totalUserAllowed })
      .from(bookings)
      .where(eq(bookings.id, bookingId)),
  );
  if (!found) return { checkedIn: 0, allowed: 0, entries: [] };
  return { ...found, entries: yield* listScansSteps(db, bookingId) };
}
