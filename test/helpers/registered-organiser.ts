import { randomUUID } from 'node:crypto';
import type { Db } from '../../src-server/db/client.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { organiserProfiles } from '../../src-server/db/schema/invoices.ts';
import { MUMBAI_TAX_PROFILE } from './tax-profile.ts';

/**
 * An organiser registered for GST, written straight into a SQLite database (the browser tests set up
 * the e2e server's rows this way): their account and invoicing profile, by default Mumbai's. Returns
 * their id; the caller gives them a role or an event as the test needs.
 */
export function insertRegisteredOrganiser(
  db: Db,
  name: string,
  profile: { legalName: string; address: string; state: string; gstin: string } = MUMBAI_TAX_PROFILE,
  now = new Date(),
): string {
  const organiserId = randomUUID();
  const at = now.toISOString();
  db.insert(users)
    .values({
      id: organiserId,
      email: `e2e-organiser-${organiserId.slice(0, 8)}@example.com`,
      name,
      isEmailVerified: true,
      createdAt: at,
      updatedAt: at,
    })
    .run();
  db.insert(organiserProfiles)
    .values({ userId: organiserId, ...profile, updatedAt: at })
    .run();
  return organiserId;
}
