import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages } from '../../src-server/db/schema/contact.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { TOO_MANY_CONTACT_MESSAGES } from '../../src-server/services/contact/messages.ts';
import { type Mailer, type MailMessage, MailSendError } from '../../src-server/services/mail/mailer.ts';
import { enqueueMail } from '../../src-server/services/mail/outbox.ts';
import { sendDueMail } from '../../src-server/services/mail/sender.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/** Issue 22: one client stored 56,565 Contact Us messages in 25 s, and their mails delayed every ticket. */
describe('floods cannot delay what matters', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp({ SUPPORT_EMAIL: 'help@jalsa.example' });
  });
  afterEach(() => t.close());

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
    expect(t.deps.db.select().from(contactMessages).all()).toHaveLength(5);
    expect(t.deps.db.select().from(outbox).all()).toHaveLength(5);
  });

  it('sends a booking confirmation queued behind a 50,000-mail backlog first', async () => {
    // The backlog: 50,000 Contact Us copies, all due, all older than the confirmation.
    t.deps.sqlite.exec(`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 50000)
      insert into outbox (idempotency_key, "to", subject, html, text, attachments, status, attempts,
                          next_attempt_at, created_at, priority)
      select 'contact-message:' || i, 'help@jalsa.example', 'Contact Us', '<p>spam</p>', 'spam', '[]',
             'pending', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1 from n;
    `);
    enqueueMail(
      t.deps.db,
      {
        to: 'asha@example.com',
        subject: 'Booking Confirmed',
        html: '<p>ok</p>',
        text: 'ok',
        idempotencyKey: 'booking-confirmed:b1',
      },
      t.clock.now(),
    );
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
    expect(
      t.deps.db.select().from(outbox).where(eq(outbox.idempotencyKey, 'booking-confirmed:b1')).get()?.status,
    ).toBe('sent');
  });

  it("keeps under the provider's rate, and stops the round when it answers 429", async () => {
    for (let i = 1; i <= 5; i++) {
      enqueueMail(
        t.deps.db,
        { to: `p${i}@example.com`, subject: 'Ticket', html: '<p>t</p>', text: 't', idempotencyKey: `k${i}` },
        t.clock.now(),
      );
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
    const rows = t.deps.db.select().from(outbox).all();
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(3);
    expect(rows.find((r) => r.idempotencyKey === 'k5')).toMatchObject({ status: 'pending', attempts: 0 });
    refuseNumber = 0;
  });
});
