import { eq } from 'drizzle-orm';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { createResendMailer } from '../../src-server/integrations/resend/resend-mailer.ts';
import type { Mailer, MailMessage } from '../../src-server/services/mail/mailer.ts';
import { MailSendError } from '../../src-server/services/mail/mailer.ts';
import { enqueueMailSteps, type OutgoingMail } from '../../src-server/services/mail/outbox.ts';
import { MAX_ATTEMPTS, mailSenderJob, sendDueMail } from '../../src-server/services/mail/sender.ts';
import { buy } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { mswServer } from '../mocks/server.ts';

const RESEND_EMAILS = 'https://api.resend.com/emails';
const FROM = 'Jalsa Bookings <bookings@jalsa.local>';
const { outbox } = tablesFor(testEngine());

/** Queues a mail as its cause's transaction does (enqueueMailSteps), on either engine. */
function enqueue(t: TestApp, mail: OutgoingMail): Promise<void> {
  return runnerFor(t.deps.db).write((tx) => enqueueMailSteps(tx as WriteTx, mail, t.clock.now()));
}

/** The outbox's rows (a test queues one, or a few). */
function outboxRows(t: TestApp) {
  return t.deps.db.select().from(outbox);
}

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    from: FROM,
    to: 'asha@example.com',
    subject: 'Booking Confirmed',
    html: '<p>Hello</p>',
    text: 'Hello',
    attachments: [{ filename: 'ticket.pdf', contentType: 'application/pdf', content: 'JVBERi0=' }],
    idempotencyKey: 'booking-confirmed:b1',
    ...overrides,
  };
}

interface SeenRequest {
  headers: Headers;
  body: Record<string, unknown>;
}

describe('the Resend adapter', () => {
  it('sends both bodies, the attachments and the idempotency key, and returns the email id', async () => {
    const seen: SeenRequest[] = [];
    mswServer.use(
      http.post(RESEND_EMAILS, async ({ request }) => {
        seen.push({ headers: request.headers, body: (await request.json()) as Record<string, unknown> });
        return HttpResponse.json({ id: 'email_123' });
      }),
    );
    const result = await createResendMailer('re_test_key').send(message());
    expect(result).toEqual({ messageId: 'email_123' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer re_test_key');
    expect(seen[0]!.headers.get('idempotency-key')).toBe('booking-confirmed:b1');
    expect(seen[0]!.body).toMatchObject({
      from: FROM,
      to: 'asha@example.com',
      subject: 'Booking Confirmed',
      html: '<p>Hello</p>',
      text: 'Hello',
      attachments: [{ filename: 'ticket.pdf', content: 'JVBERi0=', content_type: 'application/pdf' }],
    });
  });

  it('reports an API validation error as permanent', async () => {
    mswServer.use(
      http.post(RESEND_EMAILS, () =>
        HttpResponse.json(
          { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' },
          { status: 422 },
        ),
      ),
    );
    const error = await createResendMailer('re_test_key')
      .send(message())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailSendError);
    expect((error as MailSendError).retryable).toBe(false);
    expect((error as MailSendError).message).toContain('validation_error');
  });

  it('reports rate limiting and server errors as temporary', async () => {
    for (const [status, name] of [
      [429, 'rate_limit_exceeded'],
      [500, 'internal_server_error'],
    ] as const) {
      mswServer.use(
        http.post(RESEND_EMAILS, () =>
          HttpResponse.json({ statusCode: status, name, message: 'try later' }, { status }),
        ),
      );
      const error = await createResendMailer('re_test_key')
        .send(message())
        .catch((e: unknown) => e);
      expect((error as MailSendError).retryable).toBe(true);
    }
  });

  it('reports a network failure as temporary', async () => {
    mswServer.use(http.post(RESEND_EMAILS, () => HttpResponse.error()));
    const error = await createResendMailer('re_test_key')
      .send(message())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailSendError);
    expect((error as MailSendError).retryable).toBe(true);
  });
});

describe('the outbox sender', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  function queue(key = 'welcome:1', to = 'asha@example.com') {
    return enqueue(t, { to, subject: 'Welcome', html: '<p>Hi</p>', text: 'Hi', idempotencyKey: key });
  }

  function drain(mailer: Mailer) {
    return sendDueMail({ db: t.deps.db, mailer, from: FROM, clock: t.clock, logger: t.deps.logger });
  }

  it('queues a key once, however often it is enqueued', async () => {
    await queue('booking-confirmed:b9');
    await queue('booking-confirmed:b9');
    expect(await outboxRows(t)).toHaveLength(1);
  });

  it('retries after a network failure with backoff and the same idempotency key, and never sends twice', async () => {
    const keys: (string | null)[] = [];
    let failNext = true;
    mswServer.use(
      http.post(RESEND_EMAILS, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        if (failNext) {
          failNext = false;
          return HttpResponse.error();
        }
        return HttpResponse.json({ id: 'email_ok' });
      }),
    );
    const resend = createResendMailer('re_test_key');
    await queue('welcome:42');

    expect(await drain(resend)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    let row = (await outboxRows(t))[0]!;
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toContain('Unable to fetch');
    expect(new Date(row.nextAttemptAt).getTime() - t.clock.now().getTime()).toBe(30_000);

    // Not due yet: nothing is sent.
    t.clock.advance(29_000);
    expect(await drain(resend)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(keys).toHaveLength(1);

    t.clock.advance(1_000);
    expect(await drain(resend)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    row = (await outboxRows(t))[0]!;
    expect(row).toMatchObject({
      status: 'sent',
      attempts: 2,
      providerMessageId: 'email_ok',
      lastError: null,
    });

    t.clock.advance(60 * 60_000);
    expect(await drain(resend)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(keys).toEqual(['welcome:42', 'welcome:42']);
  });

  it('doubles the wait after each failure and gives up after the last attempt', async () => {
    let calls = 0;
    const broken: Mailer = {
      name: 'broken',
      send: async () => {
        calls += 1;
        throw new MailSendError('provider down', true);
      },
    };
    await queue();
    const waits: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await drain(broken);
      const row = (await outboxRows(t))[0]!;
      waits.push(new Date(row.nextAttemptAt).getTime() - t.clock.now().getTime());
      t.clock.set(new Date(row.nextAttemptAt));
    }
    expect(waits.slice(0, 4)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(Math.max(...waits)).toBe(60 * 60_000);
    expect((await outboxRows(t))[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    await drain(broken);
    expect(calls).toBe(MAX_ATTEMPTS);
  });

  it('gives up at once on a permanent error', async () => {
    const rejecting: Mailer = {
      name: 'rejecting',
      send: async () => {
        throw new MailSendError('invalid address', false);
      },
    };
    await queue();
    expect(await drain(rejecting)).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect((await outboxRows(t))[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('sends oldest first and leaves other messages untouched when one fails', async () => {
    const sent: string[] = [];
    const picky: Mailer = {
      name: 'picky',
      send: async (m) => {
        if (m.to === 'bounce@example.com') throw new MailSendError('temporary', true);
        sent.push(m.idempotencyKey);
        return { messageId: m.idempotencyKey };
      },
    };
    await queue('a', 'one@example.com');
    await queue('b', 'bounce@example.com');
    await queue('c', 'two@example.com');
    expect(await drain(picky)).toEqual({ sent: 2, retrying: 1, failed: 0 });
    expect(sent).toEqual(['a', 'c']);
    const [b] = await t.deps.db.select().from(outbox).where(eq(outbox.idempotencyKey, 'b'));
    expect(b?.status).toBe('pending');
  });
});

describe('header injection (issue 35)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  const CONTROL = /[\p{Cc}\u2028\u2029]/u;

  it('an event name with CR/LF reaches the subject on one line, queued and sent', async () => {
    // The attack: a line break in the event's name would end the Subject header and start a Bcc one.
    const ev = await createTicketedEventOn(t.deps.db, { name: 'Sunburn\r\nBcc: eve@evil.example' });
    await buy(t, ev, 1);
    const queued = await outboxRows(t);
    const confirmation = queued.find((m) => m.idempotencyKey.startsWith('booking-confirmed:'));
    expect(confirmation?.subject).toBe('🎟️ Booking Confirmed - Sunburn Bcc: eve@evil.example');
    expect(queued.filter((m) => CONTROL.test(m.subject) || CONTROL.test(m.to))).toEqual([]);

    const sent: Record<string, unknown>[] = [];
    mswServer.use(
      http.post(RESEND_EMAILS, async ({ request }) => {
        sent.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ id: `email_${sent.length}` });
      }),
    );
    const resend = createResendMailer('re_test_key');
    await sendDueMail({ db: t.deps.db, mailer: resend, from: FROM, clock: t.clock, logger: t.deps.logger });
    expect(sent.map((body) => body.subject)).toContain('🎟️ Booking Confirmed - Sunburn Bcc: eve@evil.example');
  });

  it('the Resend adapter sends every header value on one line, whoever composed the message', async () => {
    const seen: Record<string, unknown>[] = [];
    mswServer.use(
      http.post(RESEND_EMAILS, async ({ request }) => {
        seen.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ id: 'email_1' });
      }),
    );
    await createResendMailer('re_test_key').send(
      message({
        from: 'Jalsa\r\nBcc: eve@evil.example <bookings@jalsa.local>',
        to: 'asha@example.com\nBcc: eve@evil.example',
        subject: 'Refund issued - Sunburn\r\nX-Priority: 1',
        attachments: [{ filename: 'ticket\r\n.pdf', contentType: 'application/pdf', content: 'JVBERi0=' }],
      }),
    );
    expect(seen[0]).toMatchObject({
      from: 'Jalsa Bcc: eve@evil.example <bookings@jalsa.local>',
      to: 'asha@example.com Bcc: eve@evil.example',
      subject: 'Refund issued - Sunburn X-Priority: 1',
      attachments: [{ filename: 'ticket .pdf', content: 'JVBERi0=', content_type: 'application/pdf' }],
      // Bodies keep their lines.
      text: 'Hello',
    });
  });
});

describe('the development mailbox', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('writes each message with both bodies and lists it at /dev/mail', async () => {
    await enqueue(t, {
      to: 'asha@example.com',
      subject: 'Reset <your> password',
      html: '<p>Open <a href="http://localhost/reset-password?token=abc">Reset password</a></p>',
      text: 'Open http://localhost/reset-password?token=abc',
      idempotencyKey: 'dev:1',
    });
    // No Resend key in tests: the app's own mailer is the development mailbox.
    await mailSenderJob.run(t.deps);
    expect((await outboxRows(t))[0]?.status).toBe('sent');

    const list = await t.request('/dev/mail');
    expect(list.status).toBe(200);
    const listHtml = await list.text();
    expect(listHtml).toContain('asha@example.com');
    expect(listHtml).toContain('Reset &#60;your&#62; password');
    const id = /href="\/dev\/mail\/([^"]+)"/.exec(listHtml)?.[1];
    expect(id).toBeTruthy();

    const view = await (await t.request(`/dev/mail/${id}`)).text();
    expect(view).toContain('<a href="http://localhost/reset-password?token=abc">');
    const html = await t.request(`/dev/mail/${id}/html`);
    expect(await html.text()).toContain(
      '<a href="http://localhost/reset-password?token=abc">Reset password</a>',
    );

    expect((await t.request('/dev/mail/..%2F..%2Fjalsa.db')).status).toBe(404);
    expect((await t.request('/dev/mail/20260101T000000000Z-deadbeef')).status).toBe(404);
  });

  it('is not served in production', async () => {
    const prod = await createTestAppOn(testEngine(), {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://tickets.example.in',
    });
    try {
      const res = await prod.request('/dev/mail');
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('Development mailbox');
    } finally {
      await prod.close();
    }
  });
});
