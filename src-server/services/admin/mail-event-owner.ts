import { eq } from 'drizzle-orm';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';

/**
 * Tells an event's owner, in the transaction that made the change, what an administrator did to their
 * event (took it off sale, released it), with a link to the event in the editor. An event without an
 * owner mails nobody. Steps of that transaction, on either engine (ADR 0045).
 */
export function* mailEventOwnerSteps(
  tx: WriteTx,
  event: { id: string; ownerId: string | null },
  mail: { subject: string; heading: string; paragraphs: string[]; idempotencyKey: string },
  now: Date,
  links: { base: string },
): Steps<void> {
  if (!event.ownerId) return;
  const { users } = tablesOf(tx);
  const owner = yield* row(
    tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, event.ownerId)),
  );
  if (!owner) return;
  yield* enqueueMailSteps(
    tx,
    {
      to: owner.email,
      subject: mail.subject,
      ...renderMail({
        heading: mail.heading,
        greeting: `Hi ${owner.name ?? 'there'},`,
        paragraphs: mail.paragraphs,
        action: { label: 'Open the event', url: `${links.base}/organiser/events/${event.id}/edit` },
      }),
      idempotencyKey: mail.idempotencyKey,
    },
    now,
  );
}
