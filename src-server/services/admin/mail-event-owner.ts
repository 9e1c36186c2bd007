import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/accounts.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';

/**
 * Tells an event's owner, in the transaction that made the change, what an administrator did to their
 * event (took it off sale, released it), with a link to the event in the editor. An event without an
 * owner mails nobody.
 */
export function mailEventOwner(
  tx: WriteTx,
  event: { id: string; ownerId: string | null },
  mail: { subject: string; heading: string; paragraphs: string[]; idempotencyKey: string },
  now: Date,
  links: { base: string },
): void {
  if (!event.ownerId) return;
  const owner = tx
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, event.ownerId))
    .get();
  if (!owner) return;
  enqueueMail(
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
