import { eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { bookings } from '../../db/schema/bookings.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { DbOrTx } from '../inventory/holds.ts';

/**
 * "This account paid for the booking": its holder, or the sender once it was transferred (ADR 0025).
 * GST invoices are the payer's: a transfer moves the ticket, not the purchase.
 */
export const paidBy = (userId: string | Placeholder): SQL =>
  sql`coalesce(${bookings.paidByUserId}, ${bookings.userId}) = ${userId}`;

/**
 * The account that paid for a booking given away since, with the address its money mails go to; null
 * when the holder paid (ADR 0025).
 */
export function payerOf(
  db: DbOrTx,
  booking: { userId: string; paidByUserId: string | null },
): { name: string | null; email: string } | null {
  return runSync(payerOfSteps(db as WriteTx, booking));
}

/** `payerOf` written once for both engines (ADR 0045), for the transitions that mail the payer. */
export function* payerOfSteps(
  tx: WriteTx,
  booking: { userId: string; paidByUserId: string | null },
): Steps<{ name: string | null; email: string } | null> {
  if (!booking.paidByUserId || booking.paidByUserId === booking.userId) return null;
  const { users } = tablesOf(tx);
  const payer = yield* row(
    tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, booking.paidByUserId)),
  );
  return payer ?? null;
}
