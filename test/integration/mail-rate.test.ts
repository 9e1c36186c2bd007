import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseMailer } from '../../src-server/compose-deps.ts';
import { loadEnv } from '../../src-server/env.ts';
import type { Mailer, MailMessage } from '../../src-server/services/mail/mailer.ts';
import { sendDueMail } from '../../src-server/services/mail/sender.ts';
import { queueMailOn } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

/**
 * Issue 37: confirmations left at 2 a second (Resend's default) and, in rounds of 20 per 3-second tick,
 * never faster than about 7 whatever Resend allowed: 1,000 bookings took 8–11 minutes to confirm.
 */
describe('the mail rate is a setting, and the sender keeps up with it', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('sends through Resend at MAIL_SEND_PER_SECOND (default 2, Resend’s own default)', () => {
    const mailerOf = (extra: Record<string, string>) =>
      chooseMailer({
        env: loadEnv({ RESEND_API_KEY: 're_test', ...extra }),
        logger: t.deps.logger,
        clock: t.clock,
      });
    expect(mailerOf({}).maxPerSecond).toBe(2);
    expect(mailerOf({ MAIL_SEND_PER_SECOND: '10' }).maxPerSecond).toBe(10);
  });

  it('sends 100 confirmations in one round at 10 a second, ahead of the bulk mail queued before them', async () => {
    for (let i = 0; i < 40; i++) {
      await queueMailOn(t, {
        to: 'help@jalsa.example',
        subject: 'Contact Us',
        html: '<p>hi</p>',
        text: 'hi',
        idempotencyKey: `contact:${i}`,
        bulk: true,
      });
    }
    for (let i = 0; i < 100; i++) {
      await queueMailOn(t, {
        to: `buyer${i}@example.com`,
        subject: 'Booking Confirmed',
        html: '<p>ok</p>',
        text: 'ok',
        idempotencyKey: `booking-confirmed:${i}`,
      });
    }
    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      name: 'resend',
      maxPerSecond: 10,
      send: async (m) => {
        sent.push(m);
        return { messageId: `m${sent.length}` };
      },
    };
    const started = t.clock.now().getTime();
    const result = await sendDueMail({
      db: t.deps.db,
      mailer,
      from: 'x@jalsa.local',
      clock: t.clock,
      logger: t.deps.logger,
      pause: async (ms) => t.clock.advance(ms),
    });
    expect(result.sent).toBe(140);
    expect(sent.slice(0, 100).every((m) => m.idempotencyKey.startsWith('booking-confirmed:'))).toBe(true);
    // 140 messages 100 ms apart: 13.9 s, the provider's rate and no slower.
    expect(t.clock.now().getTime() - started).toBe(13_900);
  });
});
