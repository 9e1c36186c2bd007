import { type SQL, sql } from 'drizzle-orm';
import { bookings } from '../../db/schema/bookings.ts';

/**
 * "This account paid for the booking": its holder, or the sender once it was transferred (ADR 0025).
 * GST invoices are the payer's: a transfer moves the ticket, not the purchase.
 */
export const paidBy = (userId: string): SQL =>
  sql`coalesce(${bookings.paidByUserId}, ${bookings.userId}) = ${userId}`;
