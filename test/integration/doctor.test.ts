import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorReport, runDoctor } from '../../src-server/doctor.ts';
import { loadEnv } from '../../src-server/env.ts';
import { type Mailer, MailSendError } from '../../src-server/services/mail/mailer.ts';
import { fakeS3Bucket, S3_ENV } from '../helpers/fake-s3.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { mswServer } from '../mocks/server.ts';

const KEYS = {
  RAZORPAY_KEY_ID: 'rzp_test_abc',
  RAZORPAY_KEY_SECRET: 'key-secret',
  RAZORPAY_WEBHOOK_SECRET: 'hook-secret',
};

/** Issue 22: `npm run doctor` checks a production configuration end to end; Razorpay is mocked at the edge. */
describe('npm run doctor', () => {
  let site: TestApp;
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-doctor-'));
    // The running site, behind its public URL, with the real webhook secret.
    site = createTestApp({ ...KEYS, NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in' });
  });
  afterAll(() => {
    site.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function edge() {
    mswServer.use(
      http.get('https://api.razorpay.com/v1/payments', ({ request }) => {
        const expected = `Basic ${Buffer.from(`${KEYS.RAZORPAY_KEY_ID}:${KEYS.RAZORPAY_KEY_SECRET}`).toString('base64')}`;
        return request.headers.get('authorization') === expected
          ? HttpResponse.json({ entity: 'collection', count: 0, items: [] })
          : HttpResponse.json({ error: { code: 'BAD_REQUEST_ERROR' } }, { status: 401 });
      }),
      http.post('https://tickets.example.in/api/webhooks/razorpay', ({ request }) =>
        site.app.request(request),
      ),
    );
  }

  const source = (overrides: Record<string, string> = {}) => ({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://tickets.example.in',
    RESEND_API_KEY: 're_test',
    DATA_DIR: dataDir,
    ...KEYS,
    ...overrides,
  });
  const sent: string[] = [];
  const mailer: Mailer = {
    name: 'resend',
    send: async (m) => {
      sent.push(m.to);
      return { messageId: 'email_1' };
    },
  };

  it('passes a configuration that works: settings, data folder, keys, webhook through the public URL, a test mail', async () => {
    edge();
    const checks = await runDoctor(source(), loadEnv(source()), { mailer, mailTo: 'ops@example.in' });
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual([
      'settings and data folder',
      'database',
      'razorpay keys',
      'razorpay webhook',
      'mail',
    ]);
    expect(sent).toContain('ops@example.in');
  });

  it('names each thing that is wrong: keys Razorpay refuses, a webhook secret the site does not share, mail that fails', async () => {
    edge();
    const wrong = source({ RAZORPAY_KEY_SECRET: 'typo', RAZORPAY_WEBHOOK_SECRET: 'not-the-sites' });
    const failing: Mailer = {
      name: 'resend',
      send: async () => {
        throw new MailSendError('Resend validation_error: The domain is not verified', false);
      },
    };
    const checks = await runDoctor(wrong, loadEnv(wrong), { mailer: failing, mailTo: 'ops@example.in' });
    const failed = Object.fromEntries(checks.filter((c) => !c.ok).map((c) => [c.name, c.detail]));
    expect(Object.keys(failed)).toEqual(['razorpay keys', 'razorpay webhook', 'mail']);
    expect(failed['razorpay keys']).toContain(
      'Razorpay refused RAZORPAY_KEY_ID/RAZORPAY_KEY_SECRET (HTTP 401)',
    );
    expect(failed['razorpay webhook']).toContain('refused the signature');
    expect(failed.mail).toContain('The domain is not verified');
  });

  it('never says "All checks passed" about a site that takes no money and delivers no mail (issue 37)', async () => {
    const demo = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://tickets.example.in',
      DATA_DIR: dataDir,
      ALLOW_PAYMENT_SIMULATOR: 'true',
      ALLOW_FILE_MAILBOX: 'true',
    };
    const fileMailbox: Mailer = { name: 'dev-mailbox', send: async () => ({ messageId: 'file_1' }) };
    const checks = await runDoctor(demo, loadEnv(demo), { mailer: fileMailbox, mailTo: 'ops@example.in' });
    const { lines, exitCode } = doctorReport(checks);
    expect(exitCode).toBe(0);
    expect(lines).not.toContain('All checks passed.');
    expect(lines.at(-1)).toBe(
      'The configuration works, with 2 warning(s): this site takes no money; mail stays in DATA_DIR/mail, nobody receives it.',
    );
    expect(lines).toContain(
      '! payments: Razorpay is not configured: the offline simulator takes the payments (no money).',
    );
  });

  it('checks the S3 bucket for uploaded images by writing a probe and reading it back (issue 38)', async () => {
    const bucket = fakeS3Bucket();
    mswServer.use(bucket.handler);
    const mailer: Mailer = { name: 'dev-mailbox', send: async () => ({ messageId: 'file_1' }) };
    const withBucket = { DATA_DIR: dataDir, ...S3_ENV };
    const checks = await runDoctor(withBucket, loadEnv(withBucket), { mailer, mailTo: 'ops@example.in' });
    expect(checks.find((c) => c.name === 'image storage')).toMatchObject({ ok: true });
    expect(bucket.objects.has('jalsa-doctor-probe')).toBe(true);

    const wrongKey = { ...withBucket, S3_SECRET_ACCESS_KEY: 'not-the-secret-key-0000000000000000000000' };
    const failed = await runDoctor(wrongKey, loadEnv(wrongKey), { mailer, mailTo: 'ops@example.in' });
    const check = failed.find((c) => c.name === 'image storage')!;
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(
      /^S3 bucket "jalsa-images" at storage\.example\.test answered HTTP 403 \(SignatureDoesNotMatch/,
    );
    expect(check.detail).not.toContain('not-the-secret');
  });
});
