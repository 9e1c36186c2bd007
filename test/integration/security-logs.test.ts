import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { simulatorSecrets } from '../../src-server/integrations/simulator/gateway.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { createLogger } from '../../src-server/logger.ts';
import { MailSendError } from '../../src-server/services/mail/mailer.ts';
import { sendDueMail } from '../../src-server/services/mail/sender.ts';
import { reconcilePayments } from '../../src-server/services/payments/reconcile.ts';
import { setGateStaff } from '../../src-server/services/tickets/gate-staff.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { mswServer } from '../mocks/server.ts';
import { linkInOutboxOn, sessionCookieFrom, tokenOf } from './auth-helpers.ts';

/**
 * Real flows run with the app's own logger at level 'trace', writing into a buffer: sign up, a wrong
 * then a right password, password reset and change, e-mail verification, purchases through the
 * simulator and through Razorpay (msw), forged signatures and webhooks, a failing mail provider, a
 * check-in. Whatever was logged must contain no password, session, reset or verification token, e-mail
 * address, phone number, gateway secret, full signature or ticket token.
 */

/** The app (on this run's engine) with its logger writing every line, at every level, into `lines`. */
async function appWithCapturedLogs(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const logger = createLogger('trace', { write: (line: string) => lines.push(line) });
  const t = await createTestAppOn(testEngine(), { LOG_LEVEL: 'trace', ...env }, { logger });
  return { t, lines, text: () => lines.join('') };
}

/** Each secret must be absent from the log text, as given and in the usual encodings. */
function expectNoneLogged(text: string, secrets: Record<string, string>) {
  expect(text.length, 'something was logged').toBeGreaterThan(0);
  const leaks: string[] = [];
  for (const [label, secret] of Object.entries(secrets)) {
    expect(secret.length, label).toBeGreaterThanOrEqual(6);
    for (const form of new Set([
      secret,
      secret.toLowerCase(),
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
    ])) {
      if (text.toLowerCase().includes(form.toLowerCase())) leaks.push(`${label} (${form})`);
    }
  }
  expect(leaks, 'secrets or personal data found in the logs').toEqual([]);
  // Nothing shaped like an e-mail address or an Indian mobile number either, whatever its origin.
  expect(text.match(/[\w.+-]+@[\w-]+\.[\w.]+/g) ?? []).toEqual([]);
  expect(text.match(/(?<![\w-])(?:\+?91[\s-]?)?[6-9]\d{4}[\s-]?\d{5}(?!\d)/g) ?? []).toEqual([]);
}

const PASSWORD = 'Tr0ub4dor&3-first';
const NEW_PASSWORD = 'correct-horse-battery';
const RESET_PASSWORD = 'reset-to-this-one';

async function accountFlows(t: TestApp) {
  const email = 'Priya.Sharma+tickets@example.in';
  const mobile = '9123456780';
  const signUp = await callProcedure(t, 'mutation', 'auth.signUp', {
    name: 'Priya Sharma',
    email,
    mobile,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    acceptTerms: true,
  });
  expect(signUp.status).toBe(200);
  const signUpCookie = sessionCookieFrom(signUp.setCookies)!;

  const wrong = await callProcedure(t, 'mutation', 'auth.signIn', { email, password: 'wrong-password-1' });
  expect(wrong.status).toBe(401);
  const right = await callProcedure(t, 'mutation', 'auth.signIn', { email, password: PASSWORD });
  expect(right.status).toBe(200);
  const signInCookie = sessionCookieFrom(right.setCookies)!;

  const verifyToken = tokenOf(await linkInOutboxOn(t, email.toLowerCase(), '/verify-email'));
  expect((await callProcedure(t, 'mutation', 'auth.verifyEmail', { token: verifyToken })).status).toBe(200);

  const changed = await callProcedure(
    t,
    'mutation',
    'auth.changePassword',
    { currentPassword: PASSWORD, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    { cookie: signInCookie },
  );
  expect(changed.status).toBe(200);
  const changedCookie = sessionCookieFrom(changed.setCookies)!;

  await callProcedure(t, 'mutation', 'auth.requestPasswordReset', { email });
  const resetToken = tokenOf(await linkInOutboxOn(t, email.toLowerCase(), '/reset-password'));
  const reset = await callProcedure(t, 'mutation', 'auth.resetPassword', {
    token: resetToken,
    password: RESET_PASSWORD,
    confirmPassword: RESET_PASSWORD,
  });
  expect(reset.status).toBe(200);
  // A used token again, and a wrong one: both refused, and logged (if at all) without the token.
  await callProcedure(t, 'mutation', 'auth.resetPassword', {
    token: resetToken,
    password: RESET_PASSWORD,
    confirmPassword: RESET_PASSWORD,
  });
  const last = await callProcedure(t, 'mutation', 'auth.signIn', { email, password: RESET_PASSWORD });
  const lastCookie = sessionCookieFrom(last.setCookies)!;
  await callProcedure(
    t,
    'mutation',
    'auth.updateProfile',
    {
      name: 'Priya S',
      phone: '9988776655',
      gender: 'female',
      country: 'india',
      state: 'Karnataka',
      about: 'Call me on 9988776655',
    },
    { cookie: lastCookie },
  );
  await callProcedure(t, 'mutation', 'contact.send', {
    firstName: 'Priya',
    lastName: 'Sharma',
    email: 'priya.contact@example.org',
    mobile: '9012345678',
    message: 'My number is 9012345678',
  });

  return {
    'sign-up password': PASSWORD,
    'changed password': NEW_PASSWORD,
    'reset password': RESET_PASSWORD,
    'wrong password': 'wrong-password-1',
    'e-mail': email,
    'contact e-mail': 'priya.contact@example.org',
    'sign-up mobile': mobile,
    'profile phone': '9988776655',
    'contact mobile': '9012345678',
    'verification token': verifyToken,
    'reset token': resetToken,
    ...Object.fromEntries(
      [signUpCookie, signInCookie, changedCookie, lastCookie].map((c, i) => [
        `session token ${i}`,
        c.split('=')[1]!,
      ]),
    ),
  };
}

describe('secrets and personal data never reach the logs', () => {
  it('redacts every field name this app uses for secrets and personal data, top level and one level down', () => {
    const lines: string[] = [];
    const logger = createLogger('trace', { write: (line: string) => lines.push(line) });
    const sensitive = {
      password: 'p4ssword-value',
      currentPassword: 'current-pw-value',
      confirmPassword: 'confirm-pw-value',
      token: 'token-value-123',
      email: 'someone@example.com',
      userEmail: 'owner@example.com',
      phone: '9876543210',
      userPhone: '9876543211',
      mobile: '9876543212',
      contact: '9876543213',
      signature: 'signature-value-1',
      razorpay_signature: 'signature-value-2',
    };
    logger.info({ ...sensitive, input: sensitive, ticketDetails: sensitive }, 'everything');
    logger.info({ headers: { cookie: 'jalsa_session=abcdef', authorization: 'Basic c2VjcmV0' } }, 'headers');
    const text = lines.join('');
    for (const value of [...Object.values(sensitive), 'jalsa_session=abcdef', 'Basic c2VjcmV0']) {
      expect(text, value).not.toContain(value);
    }
    expect(text).toContain('[redacted]');
  });

  it('accounts, a simulator purchase, forged payments, a failing mail provider and a check-in', async () => {
    const { t, text } = await appWithCapturedLogs();
    try {
      const secrets: Record<string, string> = await accountFlows(t);

      // A purchase through the offline gateway, with a forged result first and a forged webhook.
      const buyer = await signedInUser(t, { email: 'rahul.buyer@example.com', phone: '9876501234' });
      const ev = await createTicketedEventOn(t.deps.db);
      const details = {
        name: 'Rahul Mehta',
        email: 'rahul.tickets@example.net',
        phone: '+91 91234-56789',
        state: 'Goa',
      };
      const session = await proceed(t, buyer.cookie, ev, 2, { ticketDetails: details });
      const paid = await payWithSimulator(t, session.orderId);
      const forged = `${paid.razorpay_signature.slice(0, 60)}beef`;
      expect((await confirm(t, buyer.cookie, { ...paid, razorpay_signature: forged })).status).toBe(400);
      const booked = await confirm(t, buyer.cookie, paid);
      expect(booked.status).toBe(200);
      await simulatorWebhooksDelivered(t.deps);
      const forgedHook = await t.request('/api/webhooks/razorpay', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': `${'c0ffee'.repeat(10)}abcd` },
        body: JSON.stringify({ event: 'payment.captured', payload: { customer: details } }),
      });
      expect(forgedHook.status).toBe(400);
      // A captured amount that differs from the order: logged as an error, with the payment entity.
      const { webhookSecret, keySecret } = simulatorSecrets(t.deps.appSecret);
      const odd = JSON.stringify({
        event: 'payment.captured',
        payload: {
          payment: {
            entity: {
              id: 'pay_OddAmount00001',
              order_id: session.orderId,
              amount: 1,
              currency: 'INR',
              status: 'captured',
              email: details.email,
              contact: details.phone,
            },
          },
        },
      });
      const oddSignature = createHmac('sha256', webhookSecret).update(odd).digest('hex');
      await t.request('/api/webhooks/razorpay', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': oddSignature },
        body: odd,
      });

      // The mail provider fails (retryable, then not), then the reconciler runs.
      let calls = 0;
      const failing = {
        name: 'failing',
        send: async () => {
          calls += 1;
          throw new MailSendError(calls === 1 ? 'provider timed out' : 'invalid recipient', calls === 1);
        },
      };
      await sendDueMail({
        db: t.deps.db,
        mailer: failing,
        from: t.deps.env.MAIL_FROM,
        clock: t.clock,
        logger: t.deps.logger,
      });
      expect(calls).toBeGreaterThan(0);
      const { outbox, bookings } = tablesOf(t.deps.db);
      expect((await t.deps.db.select().from(outbox)).length).toBeGreaterThan(0);
      t.clock.advance(60 * 60_000);
      await reconcilePayments(t.deps);

      // Gate staff check the ticket in with its signed QR token.
      const staff = await signedInUser(t, { email: 'gate.staff@example.com', phone: '9000012345' });
      const bookingId = (booked.data as { bookingId: string }).bookingId;
      const [bookedRow] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
      if (!bookedRow) throw new Error(`no booking ${bookingId}`);
      await setGateStaff(t.deps.db, 'gate.staff@example.com', bookedRow.eventId, true, t.clock.now());
      const ticket = await callProcedure(
        t,
        'query',
        'bookings.byId',
        { bookingId },
        { cookie: buyer.cookie },
      );
      const qrToken = (ticket.data as { qrToken: string }).qrToken;
      const admitted = await callProcedure(
        t,
        'mutation',
        'gate.scan',
        {
          eventId: bookedRow.eventId,
          slotId: bookedRow.slotId,
          gate: 'North gate',
          deviceId: 'device-1',
          scanId: 'scan-security-logs-1',
          token: qrToken,
          persons: 1,
        },
        { cookie: staff.cookie },
      );
      expect(admitted.status).toBe(200);
      const pdf = await t.request(`/api/tickets/${bookingId}.pdf`, { headers: { cookie: buyer.cookie } });
      expect(pdf.status).toBe(200);

      Object.assign(secrets, {
        'buyer e-mail': 'rahul.buyer@example.com',
        'buyer phone': '9876501234',
        'ticket e-mail': details.email,
        'ticket phone': '9123456789',
        'staff e-mail': 'gate.staff@example.com',
        'buyer session': buyer.cookie.split('=')[1]!,
        'staff session': staff.cookie.split('=')[1]!,
        'checkout signature': paid.razorpay_signature,
        'forged checkout signature': forged,
        'webhook signature': oddSignature,
        'simulator key secret': keySecret,
        'simulator webhook secret': webhookSecret,
        'app secret': t.deps.appSecret,
        'ticket token signature': qrToken.split('.').slice(1).join('.'),
      });
      expectNoneLogged(text(), secrets);
    } finally {
      await t.close();
    }
  });

  it('Razorpay: key and webhook secrets, signatures and the buyer never reach the logs', async () => {
    const keys = {
      RAZORPAY_KEY_ID: 'rzp_test_LogCheck01',
      RAZORPAY_KEY_SECRET: 'rzp-key-secret-do-not-log-01',
      RAZORPAY_WEBHOOK_SECRET: 'rzp-webhook-secret-do-not-log-02',
    };
    const { t, text } = await appWithCapturedLogs(keys);
    try {
      const buyer = await signedInUser(t, { email: 'anita.rzp@example.com', phone: '9811122233' });
      const ev = await createTicketedEventOn(t.deps.db);
      const details = {
        name: 'Anita Rao',
        email: 'anita.checkout@example.com',
        phone: '9822233344',
        state: 'Kerala',
      };

      // Razorpay unreachable, then answering with an error, then creating the order.
      mswServer.use(
        http.post('https://api.razorpay.com/v1/orders', () => HttpResponse.error(), { once: true }),
      );
      mswServer.use(
        http.post(
          'https://api.razorpay.com/v1/orders',
          () =>
            HttpResponse.json(
              { error: { code: 'SERVER_ERROR', description: 'Server down' } },
              { status: 500 },
            ),
          { once: true },
        ),
      );
      for (let i = 0; i < 2; i++) {
        const res = await callProcedure(
          t,
          'mutation',
          'payments.start',
          {
            eventId: ev.eventId,
            selectedDate: ev.dateId,
            selectedSlot: ev.slotId,
            selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 1 }],
            ticketDetails: details,
          },
          { cookie: buyer.cookie },
        );
        expect(res.status).toBe(412);
      }
      mswServer.use(
        http.post('https://api.razorpay.com/v1/orders', async ({ request }) => {
          const body = (await request.json()) as Record<string, unknown>;
          return HttpResponse.json({
            id: 'order_LogCheck00001',
            entity: 'order',
            ...body,
            status: 'created',
          });
        }),
      );
      const session = await proceed(t, buyer.cookie, ev, 1, { ticketDetails: details });
      const paymentId = 'pay_LogCheck000001';
      const signature = createHmac('sha256', keys.RAZORPAY_KEY_SECRET)
        .update(`${session.orderId}|${paymentId}`)
        .digest('hex');
      const forged = createHmac('sha256', 'guess').update(`${session.orderId}|${paymentId}`).digest('hex');
      expect(
        (
          await confirm(t, buyer.cookie, {
            razorpay_order_id: session.orderId,
            razorpay_payment_id: paymentId,
            razorpay_signature: forged,
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await confirm(t, buyer.cookie, {
            razorpay_order_id: session.orderId,
            razorpay_payment_id: paymentId,
            razorpay_signature: signature,
          })
        ).status,
      ).toBe(200);
      const hook = JSON.stringify({
        event: 'payment.failed',
        payload: { payment: { entity: { email: details.email } } },
      });
      const hookSignature = createHmac('sha256', keys.RAZORPAY_WEBHOOK_SECRET).update(hook).digest('hex');
      await t.request('/api/webhooks/razorpay', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': hookSignature },
        body: hook,
      });

      expectNoneLogged(text(), {
        'key secret': keys.RAZORPAY_KEY_SECRET,
        'webhook secret': keys.RAZORPAY_WEBHOOK_SECRET,
        'basic auth': Buffer.from(`${keys.RAZORPAY_KEY_ID}:${keys.RAZORPAY_KEY_SECRET}`).toString('base64'),
        'checkout signature': signature,
        'forged signature': forged,
        'webhook signature': hookSignature,
        'buyer e-mail': 'anita.rzp@example.com',
        'ticket e-mail': details.email,
        'ticket phone': details.phone,
        'buyer session': buyer.cookie.split('=')[1]!,
      });
    } finally {
      await t.close();
    }
  });
});
