import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';

/**
 * Grants (or revokes) gate-staff rights, which allow checking tickets in. Returns false when no account
 * has that e-mail address. Used by `npm run user:staff`.
 */
export function setGateStaff(db: Db, email: string, isStaff: boolean, now: Date): boolean {
  const result = db
    .update(users)
    .set({ isStaff, updatedAt: now.toISOString() })
    .where(eq(users.email, email.trim().toLowerCase()))
    .run();
  return result.changes === 1;
}
