import { createHmac, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { publicLinkBase } from '../shared/public-links.ts';
import { appSecretFile } from './app-secret.ts';
import { databaseFile, pendingMigrations } from './db/client.ts';
import type { DoctorCheck } from './doctor-check.ts';
import { checkPostgres } from './doctor-postgres.ts';
import type { Env } from './env.ts';
import { createS3ImageStorage, type S3Settings, s3SettingsOf } from './integrations/s3/s3-image-storage.ts';
import type { Mailer } from './services/mail/mailer.ts';
import { startupProblems } from './startup-check.ts';

const RAZORPAY_API = 'https://api.razorpay.com/v1';

/**
 * `npm run doctor`: checks a configuration end to end, as an operator would by hand before an on-sale:
 * the settings and the data folder, the database and its app secret, the Razorpay keys against
 * Razorpay's API, the webhook secret through the site's own public webhook URL (so the proxy in front is
 * checked too), the S3 bucket for uploaded images when one is set (a probe written and read back), and a
 * real test mail through the configured mailer. Each check is independent: every
 * problem is reported, not only the first.
 */
export async function runDoctor(
  source: NodeJS.ProcessEnv,
  env: Env,
  options: { mailer: Mailer; mailTo: string; fetch?: typeof fetch },
): Promise<DoctorCheck[]> {
  const http = options.fetch ?? fetch;
  const checks: DoctorCheck[] = [];
  const problems = startupProblems(source);
  checks.push({
    name: 'settings and data folder',
    ok: problems.length === 0,
    detail: problems.length === 0 ? `DATA_DIR ${env.DATA_DIR} is writable` : problems.join('\n'),
  });
  // DATABASE_URL: the PostgreSQL every server shares (doctor-postgres.ts); otherwise DATA_DIR's SQLite file.
  if (source.DATABASE_URL) checks.push(...(await checkPostgres(source, env)));
  else checks.push(checkDatabase(env));

  const bucket = s3SettingsOf(env);
  if (bucket) checks.push(await checkImageBucket(bucket));

  const {
    RAZORPAY_KEY_ID: keyId,
    RAZORPAY_KEY_SECRET: keySecret,
    RAZORPAY_WEBHOOK_SECRET: webhookSecret,
  } = env;
  if (keyId && keySecret && webhookSecret) {
    checks.push(await checkRazorpayKeys(http, keyId, keySecret));
    checks.push(await checkWebhook(http, env, webhookSecret));
  } else {
    checks.push({
      name: 'payments',
      ok: env.NODE_ENV !== 'production' || env.ALLOW_PAYMENT_SIMULATOR,
      detail: 'Razorpay is not configured: the offline simulator takes the payments (no money).',
      warning: 'this site takes no money: set the three RAZORPAY_* keys to sell for real',
    });
  }

  try {
    const { messageId } = await options.mailer.send({
      from: env.MAIL_FROM,
      to: options.mailTo,
      subject: 'Jalsa doctor: test mail',
      html: '<p>This test mail shows that Jalsa can send e-mail with this configuration.</p>',
      text: 'This test mail shows that Jalsa can send e-mail with this configuration.',
      attachments: [],
      idempotencyKey: `doctor:${randomUUID()}`,
    });
    const fileMailbox = options.mailer.name === 'dev-mailbox';
    checks.push({
      name: 'mail',
      ok: !fileMailbox || env.NODE_ENV !== 'production' || env.ALLOW_FILE_MAILBOX,
      detail: `test mail to ${options.mailTo} accepted by ${options.mailer.name} (${messageId})`,
      ...(fileMailbox && {
        warning:
          'mail stays in DATA_DIR/mail, nobody receives it: buyers get no tickets by mail and cannot verify their address (npm run user:verify does it for them); set RESEND_API_KEY',
      }),
    });
  } catch (err) {
    checks.push({
      name: 'mail',
      ok: false,
      detail: `test mail to ${options.mailTo} failed: ${(err as Error).message}`,
    });
  }
  return checks;
}

/**
 * Read-only: the doctor never migrates (a start does, after backing the database up), it says what
 * the next start will do.
 */
function checkDatabase(env: Env): DoctorCheck {
  const file = databaseFile(env.DATA_DIR);
  if (!existsSync(file)) {
    return { name: 'database', ok: true, detail: `${file} does not exist yet; the first start creates it` };
  }
  try {
    const sqlite = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const integrity = sqlite.pragma('quick_check', { simple: true });
      const pending = pendingMigrations(sqlite);
      const secret = env.APP_SECRET
        ? 'APP_SECRET'
        : existsSync(appSecretFile(env.DATA_DIR))
          ? 'app-secret'
          : null;
      const upgrade =
        pending > 0
          ? `; ${pending} migration(s) pending: the next start backs the database up into DATA_DIR/backups, then applies them`
          : '';
      return {
        name: 'database',
        ok: integrity === 'ok' && secret !== null,
        detail:
          integrity !== 'ok'
            ? `${file} failed its integrity check: ${String(integrity)}`
            : secret
              ? `${file} is sound; tickets are signed with ${secret}${upgrade}`
              : `${file} exists but neither APP_SECRET nor ${appSecretFile(env.DATA_DIR)} does: restore app-secret from its backup`,
      };
    } finally {
      sqlite.close();
    }
  } catch (err) {
    return { name: 'database', ok: false, detail: `${file} cannot be opened: ${(err as Error).message}` };
  }
}

/**
 * What `npm run doctor` prints and its exit status: a line per check, then a verdict that never says
 * "All checks passed" about a site that takes no money or delivers no mail without saying so.
 */
export function doctorReport(checks: DoctorCheck[]): { lines: string[]; exitCode: 0 | 1 } {
  const lines: string[] = [];
  for (const check of checks) {
    const [first, ...rest] = check.detail.split('\n');
    lines.push(`${check.ok ? (check.warning ? '!' : '✓') : '✗'} ${check.name}: ${first}`);
    for (const line of rest) lines.push(`    ${line}`);
    if (check.ok && check.warning) lines.push(`    warning: ${check.warning}`);
  }
  const failed = checks.filter((check) => !check.ok).length;
  const warned = checks.filter((check) => check.ok && check.warning);
  lines.push('');
  if (failed > 0) lines.push(`${failed} check(s) need attention.`);
  else if (warned.length > 0)
    lines.push(
      `The configuration works, with ${warned.length} warning(s): ${warned.map((c) => c.warning!.split(':')[0]).join('; ')}.`,
    );
  else lines.push('All checks passed.');
  return { lines, exitCode: failed === 0 ? 0 : 1 };
}

async function checkRazorpayKeys(http: typeof fetch, keyId: string, keySecret: string): Promise<DoctorCheck> {
  try {
    const res = await http(`${RAZORPAY_API}/payments?count=1`, {
      headers: { authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}` },
      signal: AbortSignal.timeout(15_000),
    });
    const mode = keyId.startsWith('rzp_live_') ? 'live' : 'test';
    if (res.ok) return { name: 'razorpay keys', ok: true, detail: `Razorpay accepted the ${mode} keys` };
    return {
      name: 'razorpay keys',
      ok: false,
      detail: `Razorpay refused RAZORPAY_KEY_ID/RAZORPAY_KEY_SECRET (HTTP ${res.status}); copy them again from Account & Settings → API Keys`,
    };
  } catch (err) {
    return {
      name: 'razorpay keys',
      ok: false,
      detail: `Razorpay could not be reached: ${(err as Error).message}`,
    };
  }
}

/** Posts a signed event the app acknowledges without acting on it to the public webhook URL. */
async function checkWebhook(http: typeof fetch, env: Env, webhookSecret: string): Promise<DoctorCheck> {
  const url = `${publicLinkBase(env.PUBLIC_URL, `http://127.0.0.1:${env.PORT}`)}/api/webhooks/razorpay`;
  const body = JSON.stringify({ entity: 'event', event: 'jalsa.doctor', contains: [], payload: {} });
  try {
    const res = await http(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': createHmac('sha256', webhookSecret).update(body).digest('hex'),
        'x-razorpay-event-id': `evt_doctor_${randomUUID().slice(0, 8)}`,
      },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    if (res.ok)
      return {
        name: 'razorpay webhook',
        ok: true,
        detail: `${url} accepted a webhook signed with RAZORPAY_WEBHOOK_SECRET`,
      };
    return {
      name: 'razorpay webhook',
      ok: false,
      detail:
        res.status === 400
          ? `${url} refused the signature: the running server has another RAZORPAY_WEBHOOK_SECRET than this one`
          : `${url} answered HTTP ${res.status}: is the server running behind that URL?`,
    };
  } catch (err) {
    return {
      name: 'razorpay webhook',
      ok: false,
      detail: `${url} could not be reached (${(err as Error).message}): is the server running?`,
    };
  }
}

/** The probe the doctor writes into the image bucket (overwritten each run; no page ever names it). */
const IMAGE_BUCKET_PROBE = 'jalsa-doctor-probe';

/**
 * Writes a few bytes to the S3 bucket and reads them back with the server's own storage, so the
 * endpoint, the URL style, the keys' signature and both permissions are all checked as uploads use them.
 */
async function checkImageBucket(bucket: S3Settings): Promise<DoctorCheck> {
  const storage = createS3ImageStorage(bucket);
  const probe = new TextEncoder().encode(`jalsa doctor ${new Date().toISOString()}`);
  try {
    await storage.put(IMAGE_BUCKET_PROBE, probe);
    const read = await storage.get(IMAGE_BUCKET_PROBE);
    if (read && Buffer.from(read).equals(Buffer.from(probe))) {
      return {
        name: 'image storage',
        ok: true,
        detail: `S3 bucket "${bucket.bucket}" stored and returned a test object (${IMAGE_BUCKET_PROBE})`,
      };
    }
    return {
      name: 'image storage',
      ok: false,
      detail: `S3 bucket "${bucket.bucket}" accepted a test object but did not return it: is S3_BUCKET the bucket S3_ENDPOINT serves?`,
    };
  } catch (err) {
    return {
      name: 'image storage',
      ok: false,
      detail: `${(err as Error).message}: check S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and the key's permissions (docs/operations.md)`,
    };
  }
}
