import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { MailAttachment } from '../schema/mail.ts';

/**
 * Mail waiting to be sent. Rows are written in the same transaction as whatever caused them (a booking,
 * a sign-up), and a background sender delivers them with retries (services/mail).
 */
export const outbox = pgTable(
  'outbox',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Sent to the provider so a retry after an unclear failure never delivers twice. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    attachments: jsonb('attachments').$type<MailAttachment[]>().notNull().default([]),
    status: text('status').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    sentAt: text('sent_at'),
    /** The provider's id for the delivered message (Resend's email id, or the development mailbox file). */
    providerMessageId: text('provider_message_id'),
    /**
     * 0 for transactional mail (confirmations, tickets, verification, resets), 1 for bulk and Contact Us
     * copies: the sender takes every due transactional message first, so a flood cannot delay a ticket.
     */
    priority: integer('priority').notNull().default(0),
  },
  (t) => [
    index('outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('outbox_due_by_priority_idx').on(t.status, t.priority, t.nextAttemptAt),
  ],
);
