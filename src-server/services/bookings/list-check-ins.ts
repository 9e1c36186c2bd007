import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/bookings.ts';

export interface CheckInHistory {
  checkedIn: number;
  allowed: number;
  /** Entries, oldest first: when and how many people walked in. */
  entries: { at: string; persons: number }[];
}

/**
 * A booking's check-in history for the console. Today bookings keep only counters and the last entry's
 * time, so the history is at most one summarised entry; the gate's append-only scan log will answer this
 * with every scan. Read it only through this function, so switching the source changes one place.
 */
export function listCheckIns(db: Pick<Db, 'select'>, bookingId: string): CheckInHistory {
  const row = db
    .select({
      checkedIn: bookings.numberOfUserCheckedIn,
      allowed: bookings.totalUserAllowed,
      lastCheckInAt: bookings.lastCheckInAt,
    })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .get();
  if (!row) return { checkedIn: 0, allowed: 0, entries: [] };
  return {
    checkedIn: row.checkedIn,
    allowed: row.allowed,
    entries:
      row.lastCheckInAt && row.checkedIn > 0 ? [{ at: row.lastCheckInAt, persons: row.checkedIn }] : [],
  };
}
