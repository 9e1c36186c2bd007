import { inArray } from 'drizzle-orm';
import type { SalesChannel } from '../../../shared/box-office-schemas.ts';
import type { Db } from '../../db/client.ts';
import { boxOfficeSales } from '../../db/schema/box-office.ts';

/** The box-office bookings among these and their channel (comp or door); the others were sold online. */
export function channelsOf(db: Db, bookingIds: string[]): Map<string, SalesChannel> {
  if (bookingIds.length === 0) return new Map();
  const rows = db
    .select({ bookingId: boxOfficeSales.bookingId, kind: boxOfficeSales.kind })
    .from(boxOfficeSales)
    .where(inArray(boxOfficeSales.bookingId, bookingIds))
    .all();
  return new Map(rows.map((r) => [r.bookingId, r.kind]));
}
