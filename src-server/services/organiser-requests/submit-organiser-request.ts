import { randomUUID } from 'node:crypto';
import { SqliteError } from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { ORGANISER_MESSAGES, type OrganiserRequestInput } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { accountRoles, organiserRequests } from '../../db/schema/roles.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { conflict } from '../../errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { getAccountRole } from '../roles/get-account-role.ts';
import { requestReceivedMail } from './organiser-request-mails.ts';

/**
 * "List your Event": stores the caller's request and, in the same transaction, mails every admin (the
 * support address when the installation has no admin yet). One request may wait per person.
 */
export async function submitOrganiserRequest(
  db: Db,
  userId: string,
  input: z.output<typeof OrganiserRequestInput>,
  now: Date,
  links: { base: string; supportEmail: string },
): Promise<{ id: string }> {
  if ((await getAccountRole(db, userId)) !== 'none') throw conflict(ORGANISER_MESSAGES.alreadyOrganiser);
  const id = randomUUID();
  try {
    await writeTransaction(db, (tx) => {
      tx.insert(organiserRequests)
        .values({ id, userId, ...input, gstin: input.gstin || null, createdAt: now.toISOString() })
        .run();
      const requester = tx
        .select({ name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, userId))
        .get()!;
      const admins = tx
        .select({ email: users.email })
        .from(accountRoles)
        .innerJoin(users, eq(users.id, accountRoles.userId))
        .where(eq(accountRoles.role, 'admin'))
        .all()
        .map((a) => a.email);
      for (const to of admins.length > 0 ? admins : [links.supportEmail]) {
        enqueueMail(
          tx,
          requestReceivedMail({
            to,
            request: { id, ...input },
            requester,
            adminPageUrl: `${links.base}/admin`,
          }),
          now,
        );
      }
    });
  } catch (error) {
    // The partial unique index: another request of this person is still waiting (also when two
    // submissions race).
    if (error instanceof SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw conflict(ORGANISER_MESSAGES.alreadyPending);
    }
    throw error;
  }
  return { id };
}
