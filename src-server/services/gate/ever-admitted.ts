import { type SQL, sql } from 'drizzle-orm';
import { bookings } from '../../db/schema/bookings.ts';

/**
 * Whether anyone was ever let in with the booking, as an SQL condition on `bookings` (for a select, a
 * WHERE or a SET). The booking's current count is not the answer: an undo at the gate lowers it, and an
 * offline double entry (excess) never raises it, yet those people walked in (issue 35). So the gate's log
 * is read too: any admission that counted or let people in beyond the ticket makes the booking used for
 * good. Check-ins made before the scan log existed have only the count. `gate_scans_booking_idx` makes the
 * EXISTS one index probe. The booking's columns are named with their table: inside the subquery a bare
 * `id` would only resolve to the booking because gate_scans has no column of that name.
 *
 * Every "was this ticket used?" asks this: the buyer's cancellation, a transfer, the organiser's cancel and
 * whether a cancelled booking's seats go back on sale.
 */
export function everAdmitted(table: object = bookings): SQL<boolean> {
  // `table`: the engine's own bookings table (tablesOf), for a transition written once (ADR 0045).
  return sql`(${table}.number_of_user_checked_in > 0 or exists (select 1 from gate_scans as s where s.booking_id = ${table}.id and s.kind = 'admit' and (s.persons > 0 or s.excess > 0)))`.mapWith(
    (v) => Boolean(Number(v)),
  );
}
