import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PgDb } from '../../src-server/db/engine/postgres.ts';
import { TOO_MANY_CONTACT_MESSAGES } from '../../src-server/services/contact/messages.ts';
import { type Mailer, type MailMessage, MailSendError } from '../../src-server/services/mail/mailer.ts';
import { sendDueMail } from '../../src-server/services/mail/sender.ts';
import { queueMailOn } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/** Issue 22: one client stored 56,565 Contact Us messages in 25 s, and their mails delayed every ticket. */
describe('floods cannot delay what matters', () => {
  const { contactMessages, outbox } = tablesFor(testEngine());
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), { SUPPORT_EMAIL: 'help@jalsa.example' });
  });
  afterEach(async () => {
    await t.close();
  });

  const contact = {
    firstName: 'Flood',
    lastName: 'Bot',
    email: 'bot@example.com',
    mobile: '9876543210',
    message: 'spam',
  };

  it('stores at most a handful of Contact Us messages from one client address', async () => {
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await callProcedure(t, 'mutation', 'contact.send', contact));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(25);
    expect(refused[0]!.body.error?.message).toBe(TOO_MANY_CONTACT_MESSAGES);
    expect(await t.deps.db.select().from(contactMessages)).toHaveLength(5);
    expect(await t.deps.db.select().from(outbox)).toHaveLength(5);
  });

  it('sends a booking confirmation queued behind a 50,000-mail backlog first', async () => {
    // The backlog: 50,000 Contact Us copies, all due, all older than the confirmation (the same SQL on
    // both engines).
    await execute(
      t,
      `
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 50000)
      insert into outbox (idempotency_key, "to", subject, html, text, attachments, status, attempts,
                          next_attempt_at, created_at, priority)
      select 'contact-message:' || i, 'help@jalsa.example', 'Contact Us', '<p>spam</p>', 'spam', '[]',
             'pending', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1 from n;
    `,
    );
    await queueMailOn(t, {
      to: 'asha@example.com',
      subject: 'Booking Confirmed',
      html: '<p>ok</p>',
      text: 'ok',
      idempotencyKey: 'booking-confirmed:b1',
    });
    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      name: 'recording',
      send: async (m) => {
        sent.push(m);
        return { messageId: `m${sent.length}` };
      },
    };
    await sendDueMail({
      db: t.deps.db,
      mailer,
      from: 'x@jalsa.local',
      clock: t.clock,
      logger: t.deps.logger,
    });
    expect(sent[0]?.idempotencyKey).toBe('booking-confirmed:b1');
    const [confirmation] = await t.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.idempotencyKey, 'booking-confirmed:b1'));
    expect(confirmation?.status).toBe('sent');
  });

  it("keeps under the provider's rate, and stops the round when it answers 429", async () => {
    for (let i = 1; i <= 5; i++) {
      await queueMailOn(t, {
        to: `p${i}@example.com`,
        subject: 'Ticket',
        html: '<p>t</p>',
        text: 't',
        idempotencyKey: `k${i}`,
      });
    }
    const sentAt: number[] = [];
    let refuseNumber = 4;
    const mailer: Mailer = {
      name: 'limited',
      maxPerSecond: 2,
      send: async () => {
        sentAt.push(t.clock.now().getTime());
        if (sentAt.length === refuseNumber) throw new MailSendError('Resend rate_limit_exceeded', true, true);
        return { messageId: `m${sentAt.length}` };
      },
    };
    const result = await sendDueMail({
      db: t.deps.db,
      mailer,
      from: 'x@jalsa.local',
      clock: t.clock,
      logger: t.deps.logger,
      pause: t.clock.sleep, // moves the test's clock instead of sleeping
    });
    // Four tried, at least 500 ms apart; the 429 ended the round with the fifth untouched.
    expect(sentAt).toHaveLength(4);
    for (let i = 1; i < sentAt.length; i++) expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(500);
    expect(result).toEqual({ sent: 3, retrying: 1, failed: 0 });
    const rows = await t.deps.db.select().from(outbox);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(3);
    expect(rows.find((r) => r.idempotencyKey === 'k5')).toMatchObject({ status: 'pending', attempts: 0 });
    refuseNumber = 0;
  });
});

/** Runs a statement of SQL the two engines read alike, on the app's engine. */
async function execute(t: TestApp, statement: string): Promise<void> {
  if (t.engine === 'sqlite') t.deps.sqlite.exec(statement);
  else await (t.deps.db as unknown as PgDb).execute(sql.raw(statement));
}
