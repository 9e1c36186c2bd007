import { and, asc, eq, lte } from 'drizzle-orm';
import type { BackgroundJob } from '../../background-job.ts';
import type { Db } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { type AppDeps, systemClock } from '../../deps.ts';
import type { Logger } from '../../logger.ts';
import { type Mailer, MailSendError } from './mailer.ts';

/** Attempts before a message is marked failed; with the backoff below (30 s doubling to 1 h) that is about three hours of trying. */
export const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;
/**
 * A claimed message is not picked up again for this long. If the process dies mid-send, the message is
 * retried after the lease with the same idempotency key, which the provider deduplicates.
 */
const CLAIM_LEASE_MS = 5 * 60_000;
const BATCH_SIZE = 20;
/**
 * A round (one job tick) sends for about this long at the provider's rate, batch after batch, each
 * batch choosing transactional mail first again: one batch of 20 per 3 s tick capped the rate at about
 * 7 a second whatever the provider allows (issue 37). A mailer without a rate sends one batch a round.
 */
const ROUND_SECONDS = 30;

/** Delay before attempt `attempts + 1`, after `attempts` failures: 30 s, 1 min, 2 min, ... capped at 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

export interface SendResult {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Delivers the outbox's due messages: transactional mail before bulk mail, each oldest first. Each is
 * claimed before sending (so another sender process skips it), then marked sent, rescheduled with
 * exponential backoff, or marked failed. Sends are spaced to stay under the provider's rate limit; a
 * refusal for that limit (429) ends the round, and the rest wait for the next one. Written once for both
 * engines (ADR 0045).
 */
export async function sendDueMail(options: {
  db: Db;
  mailer: Mailer;
  from: string;
  clock: { now: () => Date };
  logger: Logger;
  /** Waits between sends (tests pass one that moves their clock). */
  pause?: (ms: number) => Promise<void>;
}): Promise<SendResult> {
  const { db, mailer, from, clock, logger } = options;
  const { outbox } = tablesOf(db);
  const pause = options.pause ?? systemClock.sleep;
  const spacingMs = mailer.maxPerSecond ? Math.ceil(1000 / mailer.maxPerSecond) : 0;
  const result: SendResult = { sent: 0, retrying: 0, failed: 0 };
  let lastSendAt: number | undefined;
  const roundLimit = Math.max(BATCH_SIZE, (mailer.maxPerSecond ?? 0) * ROUND_SECONDS);
  let taken = 0;
  while (taken < roundLimit) {
    const due = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, clock.now().toISOString())))
      .orderBy(asc(outbox.priority), asc(outbox.nextAttemptAt), asc(outbox.id))
      .limit(Math.min(BATCH_SIZE, roundLimit - taken));
    taken += due.length;
    let rateLimited = false;
    for (const mail of due) {
      if (spacingMs > 0 && lastSendAt !== undefined) {
        const wait = lastSendAt + spacingMs - clock.now().getTime();
        if (wait > 0) await pause(wait);
      }
      // The claim is one conditional UPDATE: of two senders (two servers, on PostgreSQL) that read the
      // same message, the second's finds it moved on and skips it (PostgreSQL re-checks the condition on
      // the row the first committed), so each message is sent once.
      const claimed = await runStatements(db, (d) =>
        changes(
          d
            .update(outbox)
            .set({ nextAttemptAt: new Date(clock.now().getTime() + CLAIM_LEASE_MS).toISOString() })
            .where(
              and(
                eq(outbox.id, mail.id),
                eq(outbox.status, 'pending'),
                eq(outbox.nextAttemptAt, mail.nextAttemptAt),
              ),
            ),
        ),
      );
      if (claimed !== 1) continue;

      const attempts = mail.attempts + 1;
      lastSendAt = clock.now().getTime();
      try {
        const { messageId } = await mailer.send({
          from,
          to: mail.to,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          attachments: mail.attachments,
          idempotencyKey: mail.idempotencyKey,
        });
        await db
          .update(outbox)
          .set({
            status: 'sent',
            attempts,
            sentAt: clock.now().toISOString(),
            providerMessageId: messageId,
            lastError: null,
          })
          .where(eq(outbox.id, mail.id));
        result.sent += 1;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const retryable = !(err instanceof MailSendError) || err.retryable;
        const giveUp = !retryable || attempts >= MAX_ATTEMPTS;
        await db
          .update(outbox)
          .set({
            status: giveUp ? 'failed' : 'pending',
            attempts,
            lastError: message.slice(0, 500),
            nextAttemptAt: new Date(clock.now().getTime() + retryDelayMs(attempts)).toISOString(),
          })
          .where(eq(outbox.id, mail.id));
        // The address is personal data; the outbox id is enough to find the row.
        logger.warn(
          { outboxId: mail.id, attempts, giveUp, mailer: mailer.name, err: message },
          'mail not sent',
        );
        if (giveUp) result.failed += 1;
        else result.retrying += 1;
        if (err instanceof MailSendError && err.rateLimited) {
          rateLimited = true;
          break;
        }
      }
    }
    if (rateLimited || due.length === 0) break;
  }
  return result;
}

/** The background job that drains the outbox every few seconds (registered in jobs.ts). */
export const mailSenderJob: BackgroundJob = {
  name: 'mail-sender',
  intervalMs: 3_000,
  run: async (deps: AppDeps) => {
    await sendDueMail({
      db: deps.db,
      mailer: deps.mailer,
      from: deps.env.MAIL_FROM,
      clock: deps.clock,
      logger: deps.logger,
      pause: deps.clock.sleep,
    });
  },
};
