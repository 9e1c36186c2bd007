import type { Db } from '../../db/client.ts';
import { changes, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { MailAttachment } from '../../db/schema/mail.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { withSafeHeaders } from './header-value.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
  /** Unique per message (e.g. `booking-confirmed:{bookingId}`); enqueuing the same key twice is a no-op. */
  idempotencyKey: string;
  /** Mail nobody is waiting for (Contact Us copies, announcements): sent after every transactional one. */
  bulk?: boolean;
}

export const TRANSACTIONAL_PRIORITY = 0;
export const BULK_PRIORITY = 1;

/** Anything drizzle can write through: the database or an open transaction. */
type Writer = Pick<Db, 'insert'>;

/**
 * Queues a mail, its header values on one line. Call it inside the transaction that causes the mail,
 * so the mail exists if and only if the cause committed. The background sender delivers it.
 */
export function enqueueMail(writer: Writer, composed: OutgoingMail, now: Date): void {
  runSync(enqueueMailSteps(writer as WriteTx, composed, now));
}

/** `enqueueMail` written once for both engines (ADR 0045): a step of the transaction that causes the mail. */
export function* enqueueMailSteps(tx: WriteTx, composed: OutgoingMail, now: Date): Steps<void> {
  const { outbox } = tablesOf(tx);
  // Subject and address on one line, whatever text they were made from (header-value.ts).
  const mail = withSafeHeaders(composed);
  const at = now.toISOString();
  yield* changes(
    tx
      .insert(outbox)
      .values({
        idempotencyKey: mail.idempotencyKey,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        attachments: mail.attachments ?? [],
        nextAttemptAt: at,
        createdAt: at,
        priority: mail.bulk ? BULK_PRIORITY : TRANSACTIONAL_PRIORITY,
      })
      .onConflictDoNothing({ target: outbox.idempotencyKey }),
  );
}
