import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TransferStatus } from '../schema/transfers.ts';
import { users } from './accounts.ts';
import { bookings } from './bookings.ts';

/**
 * A buyer giving a booking to someone else (issue 16, docs/decisions/0025-ticket-transfers.md). The
 * mailed link's token is the credential (only its SHA-256 is kept), and only the account with `to_email`
 * may accept. Rows are the transfer history: never deleted, the sender's "Transferred" list reads them.
 */
export const bookingTransfers = pgTable(
  'booking_transfers',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    fromUserId: text('from_user_id')
      .notNull()
      .references(() => users.id),
    fromName: text('from_name').notNull(),
    toName: text('to_name').notNull(),
    toEmail: text('to_email').notNull(),
    /** 10 digits, or '' when the sender gave none. */
    toPhone: text('to_phone').notNull().default(''),
    tokenHash: text('token_hash').notNull().unique(),
    status: text('status').$type<TransferStatus>().notNull().default('pending'),
    toUserId: text('to_user_id').references(() => users.id),
    createdAt: text('created_at').notNull(),
    acceptedAt: text('accepted_at'),
    cancelledAt: text('cancelled_at'),
  },
  (t) => [
    // At most one transfer of a booking waits at a time.
    uniqueIndex('booking_transfers_pending_idx').on(t.bookingId).where(sql`${t.status} = 'pending'`),
    index('booking_transfers_booking_idx').on(t.bookingId, t.createdAt),
    // The sender's My Bookings: the bookings they gave away.
    index('booking_transfers_from_idx').on(t.fromUserId, t.status, t.createdAt),
  ],
);
