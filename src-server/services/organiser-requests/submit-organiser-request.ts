import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { ORGANISER_MESSAGES, type OrganiserRequestInput } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict } from '../../errors.ts';
import { isUniqueViolation } from '../accounts/sign-up.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { getAccountRole } from '../roles/get-account-role.ts';
import { requestReceivedMail } from './organiser-request-mails.ts';

/**
 * "List your Event": stores the caller's request and, in the same transaction, mails every admin (the
 * support address when the installation has no admin yet). One request may wait per person. Written
 * once for both engines (ADR 0045).
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
    await runnerFor(db).write(function* (db) {
      const tx = db as WriteTx;
      const { accountRoles, organiserRequests, users } = tablesOf(tx);
      yield* changes(
        tx
          .insert(organiserRequests)
          .values({ id, userId, ...input, gstin: input.gstin || null, createdAt: now.toISOString() }),
      );
      const requester = (yield* row(
        tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId)),
      ))!;
      const admins = (yield* rows(
        tx
          .select({ email: users.email })
          .from(accountRoles)
          .innerJoin(users, eq(users.id, accountRoles.userId))
          .where(eq(accountRoles.role, 'admin'))
          .orderBy(users.email),
      )).map((a) => a.email);
      for (const to of admins.length > 0 ? admins : [links.supportEmail]) {
        yield* enqueueMailSteps(
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
    if (isUniqueViolation(error)) {
      throw conflict(ORGANISER_MESSAGES.alreadyPending);
    }
    throw error;
  }
  return { id };
}
