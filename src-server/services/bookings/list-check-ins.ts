import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { type CheckInRecord, listCheckIns as listScans } from '../gate/list-check-ins.ts';

export interface CheckInHistory {
  checkedIn: number;
  allowed: number;
  /** The gate's scan log for this booking, oldest first: every admission and undo, where and by whom. */
  entries: CheckInRecord[];
}

/** A booking's check-in history for the console: its counters, and every admission and undo at the gate. */
export function listCheckIns(db: Db, bookingId: string): CheckInHistory {
  const row = db
    .select({ checkedIn: bookings.numberOfUserCheckedIn, allowed: bookings.totalUserAllowed })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .get();
  if (!row) return { checkedIn: 0, allowed: 0, entries: [] };
  return { ...row, entries: listScans(db, bookingId) };
}
