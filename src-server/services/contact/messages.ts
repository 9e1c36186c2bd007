import type { z } from 'zod';
import type { ContactMessageInput } from '../../../shared/catalog-schemas.ts';
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema/contact.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';

/**
 * Stores a Contact Us message (already validated by ContactMessageInput) and, in the same transaction,
 * queues a copy to the support address. Returns its id.
 */
export function saveContactMessage(
  db: Db,
  message: z.output<typeof ContactMessageInput>,
  now: Date,
  supportEmail: string,
): Promise<{ id: number }> {
  return writeTransaction(db, (tx) => {
    const row = tx
      .insert(contactMessages)
      .values({ ...message, createdAt: now.toISOString() })
      .returning({ id: contactMessages.id })
      .get();
    const sender = `${message.firstName} ${message.lastName}`.trim();
    enqueueMail(
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
          footnote: `Message #${row.id}. Reply to ${message.email}.`,
        }),
        idempotencyKey: `contact-message:${row.id}`,
      },
      now,
    );
    return { id: row.id };
  });
}
