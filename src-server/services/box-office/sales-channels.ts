import { eq, inArray } from 'drizzle-orm';
import type { SalesChannel } from '../../../shared/box-office-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/** The box-office bookings among these and their channel (comp or door); the others were sold online. */
export function channelsOf(db: Db, bookingIds: string[]): Map<string, SalesChannel> {
  return runSync(channelsOfSteps(db, bookingIds));
}

/** `channelsOf` written once for both engines (ADR 0045): the orders export reads it on either. */
export function* channelsOfSteps(db: DbOrTx, bookingIds: string[]): Steps<Map<string, SalesChannel>> {
  if (bookingIds.length === 0) return new Map();
  const { boxOfficeSales } = tablesOf(db);
  const found = yield* rows(
    db
      .select({ bookingId: boxOfficeSales.bookingId, kind: boxOfficeSales.kind })
      .from(boxOfficeSales)
      .where(inArray(boxOfficeSales.bookingId, bookingIds)),
  );
  return new Map(found.map((r) => [r.bookingId, r.kind]));
}

/**
 * Whether a booking was made at the box office (ADR 0042): its money, if any, never passed through the
 * gateway, so cancelling it queues no gateway refund (the organiser settles a door sale at the desk).
 */
export function isBoxOfficeBooking(tx: DbOrTx, bookingId: string): boolean {
  return runSync(isBoxOfficeBookingSteps(tx, bookingId));
}

/** `isBoxOfficeBooking` written once for both engines (ADR 0045). */
export function* isBoxOfficeBookingSteps(tx: DbOrTx, bookingId: string): Steps<boolean> {
  const { boxOfficeSales } = tablesOf(tx);
  const sale = yield* row(
    tx
      .select({ bookingId: boxOfficeSales.bookingId })
      .from(boxOfficeSales)
      .where(eq(boxOfficeSales.bookingId, bookingId)),
  );
  return sale !== undefined;
}
