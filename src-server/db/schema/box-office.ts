import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { BoxOfficeKind, DoorPaymentMethod } from '../../../shared/box-office-schemas.ts';
import { bookings } from './bookings.ts';
import { events } from './catalog.ts';

/**
 * A booking made at the box office (issue 40, ADR 0042): a complimentary booking or a sale at the door.
 * The booking itself is an ordinary one, made by the same hold and confirmation as an online sale; this
 * row says how it came about. An online booking has none (its channel is 'online').
 */
export const boxOfficeSales = sqliteTable(
  'box_office_sales',
  {
    bookingId: text('booking_id')
      .primaryKey()
      .references(() => bookings.id),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    kind: text('kind').$type<BoxOfficeKind>().notNull(),
    /** A door sale's: 'cash' or 'upi' (paid to the organiser at the venue); null for a comp. */
    method: text('method').$type<DoorPaymentMethod>(),
    /** A UPI transaction id or a receipt number, as the seller typed it. */
    reference: text('reference'),
    /** Why (required for a comp: "artist's guest", "press"). */
    reason: text('reason'),
    /** The account that recorded it; no foreign key, like the order history's actor. */
    recordedBy: text('recorded_by').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('box_office_sales_event_idx').on(t.eventId, t.kind)],
);
