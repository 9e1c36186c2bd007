import type { z } from 'zod';
import type { ContactMessageInput } from '../../../shared/catalog-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { tooManyRequests } from '../../errors.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { type RateLimit, takeRateLimited } from '../rate-limits/rate-limits.ts';

/** Anonymous writes are limited per client address (issue 22): one client once stored 56,565 messages. */
export const CONTACT_MESSAGES_PER_CLIENT: RateLimit = {
  name: 'contact/client',
  max: 5,
  windowMs: 15 * 60_000,
};
/**
 * All addresses together (CONTACT_MESSAGES_PER_HOUR): a flood from many addresses passes the limit per
 * address, and each message is a stored row and a queued mail (issue 37).
 */
export function contactMessagesOfAll(perHour: number): RateLimit {
  return { name: 'contact/all', max: perHour, windowMs: 60 * 60_000 };
}
export const TOO_MANY_CONTACT_MESSAGES = 'Too many messages sent. Please try again later';

/**
 * Stores a Contact Us message (already validated by ContactMessageInput) and, in the same transaction,
 * queues a copy to the support address, unless this client address, or everyone together, has sent
 * too many lately. Returns its id. Written once for both engines (ADR 0045).
 */
export async function saveContactMessage(
  db: Db,
  message: z.output<typeof ContactMessageInput>,
  options: { now: Date; supportEmail: string; clientIp: string; allPerHour: number },
): Promise<{ id: number }> {
  const { now, supportEmail } = options;
  const counted = [
    { limit: CONTACT_MESSAGES_PER_CLIENT, key: options.clientIp },
    { limit: contactMessagesOfAll(options.allPerHour), key: 'all' },
  ];
  if (!(await takeRateLimited(db, counted, now))) {
    throw tooManyRequests(TOO_MANY_CONTACT_MESSAGES);
  }
  return runnerFor(db).write(function* (db) {
    const tx = db as WriteTx;
    const { contactMessages } = tablesOf(tx);
    const stored = (yield* row(
      tx
        .insert(contactMessages)
        .values({ ...message, createdAt: now.toISOString() })
        .returning({ id: contactMessages.id }),
    ))!;
    const sender = `${message.firstName} ${message.lastName}`.trim();
    yield* enqueueMailSteps(
      tx,
      {
        to: supportEmail,
        subject: `Contact Us: message from ${sender}`,
        ...renderMail({
          heading: 'New Contact Us message',
          paragraphs: [
            `From: ${sender} <${message.email}>`,
            `Mobile: ${message.mobile || 'not given'}`,
            message.message,
          ],
          footnote: `Message #${stored.id}. Reply to ${message.email}.`,
        }),
        idempotencyKey: `contact-message:${stored.id}`,
        // Nobody's booking waits on it: a flood of these goes out after every ticket and reset.
        bulk: true,
      },
      now,
    );
    return { id: stored.id };
  });
}
