import { existsSync } from 'node:fs';
import { z } from 'zod';
import { isValidGstinValue } from '../shared/gst-schemas.ts';
import { stateOfGstin } from '../shared/gst-states.ts';
import { pinOf } from '../shared/indian-pin.ts';
import { isIndianState } from '../shared/states.ts';
import { DEFAULT_POOL_SIZE } from './db/engine/pool-size.ts';

/**
 * Every setting the server reads, validated once at boot. `.env.example` lists the same keys.
 * Optional integrations (Razorpay, Resend, Google) switch on only when all of their keys are present.
 */
const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

function optionalPositiveInt() {
  return z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().optional());
}

export const DATABASE_URL_INVALID =
  'DATABASE_URL must be a PostgreSQL URL starting with postgres:// or postgresql:// (e.g. postgres://jalsa:password@db.internal:5432/jalsa); leave it empty to keep the SQLite file in DATA_DIR';

export const DATABASE_POOL_SIZE_INVALID = 'DATABASE_POOL_SIZE must be a whole number from 1 to 200';

export const S3_ENDPOINT_INVALID =
  "S3_ENDPOINT must be the storage service's http(s) origin, e.g. https://<account>.r2.cloudflarestorage.com or http://minio.internal:9000";

/** Each setting on its own; EnvSchema adds the rules between them. */
const EnvFieldsShape = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /**
   * Unset: 127.0.0.1 behind a trusted proxy (TRUST_PROXY=true; the proxy on this machine is the only way
   * in), otherwise 0.0.0.0. compose.yaml sets 0.0.0.0 itself: Caddy reaches the app over compose's network.
   */
  HOST: z.string().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * The PostgreSQL every server of a multi-server installation shares (ADR 0035; docs/operations.md,
   * "More than one server"). Unset: the SQLite file in DATA_DIR, as always. The message never repeats
   * the value, which holds a password.
   */
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\/\S+$/, DATABASE_URL_INVALID)
    .optional(),
  /** Connections this server keeps open to DATABASE_URL's PostgreSQL (`npm run doctor` checks they fit). */
  DATABASE_POOL_SIZE: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: DATABASE_POOL_SIZE_INVALID })
      .int(DATABASE_POOL_SIZE_INVALID)
      .min(1, DATABASE_POOL_SIZE_INVALID)
      .max(200, DATABASE_POOL_SIZE_INVALID)
      .default(DEFAULT_POOL_SIZE),
  ),
  /** Public origin of the site, used in e-mail links and Open Graph tags. */
  PUBLIC_URL: z.url().optional(),
  /** Signs ticket QR codes and simulator payments. Generated and kept in DATA_DIR when unset. */
  APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Demo events in an empty database: on by default in development and tests, never unasked in production. */
  SEED_DEMO_DATA: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  /** Honour X-Forwarded-For / X-Forwarded-Host: only behind a reverse proxy that overwrites them. */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * In production the offline simulator would hand out tickets without payment, so it is refused unless
   * this is set (a public demo that takes no money). Outside production the simulator is the default.
   */
  ALLOW_PAYMENT_SIMULATOR: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  RAZORPAY_KEY_ID: optionalText,
  RAZORPAY_KEY_SECRET: optionalText,
  RAZORPAY_WEBHOOK_SECRET: optionalText,
  RESEND_API_KEY: optionalText,
  /**
   * Production refuses to start without RESEND_API_KEY unless this is set: mail then goes to
   * DATA_DIR/mail, where no buyer ever reads it (a demo, or a site whose mail is not set up yet).
   */
  ALLOW_FILE_MAILBOX: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  MAIL_FROM: z.string().default('Jalsa Bookings <bookings@jalsa.local>'),
  SUPPORT_EMAIL: z.email().default('support@jalsa.local'),
  /**
   * The platform's GST registration, for the convenience fee's own invoice (issue 16). All four or
   * none: without them the fee is charged without GST and each invoice says so. Outside production,
   * with demo data on, a demo registration fills them when none is set (DEMO_PLATFORM_GST below).
   */
  PLATFORM_GSTIN: optionalText,
  PLATFORM_LEGAL_NAME: optionalText,
  PLATFORM_ADDRESS: optionalText,
  /** One of shared/states.ts, e.g. 'Karnataka'. */
  PLATFORM_STATE: optionalText,
  /**
   * The Invoice Registration Portal (through a GSP) for organisers who say e-invoicing applies to them
   * (issue 36): base URL and access token. Unset: their B2B invoices wait, marked as not registered.
   */
  EINVOICE_IRP_URL: optionalText.pipe(z.url().optional()),
  EINVOICE_IRP_TOKEN: optionalText,
  /**
   * E-invoicing for the platform's own documents (issue 36): from this day (IST, e.g. 2026-04-01) the
   * convenience-fee invoices to buyers with a GSTIN, and their credit notes, are registered with the same
   * IRP as organisers' (EINVOICE_IRP_URL). A day rather than on/off, as an organiser's "since": a fee
   * invoice issued before it was not an e-invoice when issued. Needs the platform's GST registration.
   */
  PLATFORM_E_INVOICING_SINCE: optionalText.pipe(
    z.iso.date({ error: 'PLATFORM_E_INVOICING_SINCE must be a day like 2026-04-01' }).optional(),
  ),
  /**
   * The platform's aggregate annual turnover is ₹10 crore or more: only then does the IRP's 30-day
   * reporting window apply to its e-invoices (GSTN advisory, from 1 Apr 2025), so only then does the job
   * give up by itself on a fee invoice or credit note older than that. Unset: no window of Jalsa's own.
   */
  PLATFORM_AATO_10_CRORE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * An S3-compatible bucket for uploaded images (AWS S3, Cloudflare R2, MinIO, Backblaze B2, DigitalOcean
   * Spaces), which every server of a multi-server installation reads (docs/decisions/0049). Bucket,
   * region and both keys go together; S3_ENDPOINT is the service's origin (unset: AWS S3 in S3_REGION).
   * None set: the images stay in DATA_DIR/uploads.
   */
  S3_BUCKET: optionalText,
  S3_REGION: optionalText,
  S3_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/, error: S3_ENDPOINT_INVALID }).optional()),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** `endpoint/bucket/key` URLs instead of `bucket.endpoint/key`: MinIO and most self-hosted stores. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  /**
   * Server processes sharing the port and the database file (docs/decisions/0009-web-concurrency.md).
   * 1 is today's single process; more fork workers with node:cluster, and only worker 0 runs the jobs.
   */
  WEB_CONCURRENCY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(1).max(64).default(1),
  ),
  /**
   * Hoarding caps at Proceed (services/inventory/hoarding.ts has the defaults and why): seats one
   * account, and one client address, may hold across all events at once, and holds of one slot per
   * account per hour. Raise them for a load test whose buyers all come from one address.
   */
  HOLD_SEATS_PER_ACCOUNT: optionalPositiveInt(),
  /** 0 turns the per-address cap off (a load test's crowd on one loopback address). */
  HOLD_SEATS_PER_ADDRESS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(0).optional(),
  ),
  HOLDS_PER_SLOT_PER_HOUR: optionalPositiveInt(),
  /**
   * Sign-ups and Contact Us messages per hour from all addresses together (issue 37): the per-address
   * limits do not stop a flood from many addresses, which once stored 1,700 rows a second, each with
   * a queued mail. What anonymous traffic can store and queue is bounded by these.
   */
  SIGN_UPS_PER_HOUR: z.coerce.number().int().positive().default(2_000),
  CONTACT_MESSAGES_PER_HOUR: z.coerce.number().int().positive().default(100),
  /**
   * Mail sent per second through Resend. Resend's default is 2 requests a second per team (1,000
   * confirmations then take about 8 minutes); raise it to the limit Resend granted your team.
   */
  MAIL_SEND_PER_SECOND: z.coerce.number().int().positive().max(1_000).default(2),
  /**
   * Below this much free space in DATA_DIR's file system, /readyz answers 503 naming the disk, and the
   * log warns from twice this on (docs/operations.md, "Seeing trouble coming").
   */
  DISK_FREE_MIN_MB: z.coerce.number().int().min(0).default(500),
  /**
   * `GET /metrics` (Prometheus text) answers requests carrying `Authorization: Bearer <this>`; without
   * it set, only requests from this machine that came through no proxy.
   */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /**
   * Benchmarks only (bench/catalog.ts): a request with this value in `x-jalsa-cache-bypass` is computed
   * rather than answered from the public micro-cache. Unset (the default), nothing can skip the cache.
   */
  PUBLIC_CACHE_BYPASS_TOKEN: optionalText,
  /** Runs every background job this often instead of its own interval (the fault tests' restarted servers). */
  JOB_INTERVAL_MS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().positive().optional(),
  ),
});

/**
 * An empty (or blank) value means unset, for every setting: `.env.example` ships each key with nothing
 * after `=`, and `cp .env.example .env` is the first step of every path in the README (issue 37).
 */
function withoutEmptyValues(source: z.input<typeof EnvFieldsShape>): unknown {
  if (typeof source !== 'object' || source === null) return source;
  return Object.fromEntries(
    Object.entries(source).filter(([, value]) => typeof value !== 'string' || value.trim() !== ''),
  );
}

export const EnvFields = z.preprocess(withoutEmptyValues, EnvFieldsShape);

export const PUBLIC_URL_REQUIRED =
  'PUBLIC_URL is required when NODE_ENV=production (e.g. https://tickets.example.in)';

export const PLATFORM_GST_INVALID =
  'PLATFORM_GSTIN, PLATFORM_LEGAL_NAME, PLATFORM_ADDRESS and PLATFORM_STATE go together: a valid GSTIN of that state (e.g. 29AAGCB7383J1Z4 with Karnataka), or none of them';

export const EINVOICE_IRP_INVALID =
  'EINVOICE_IRP_URL (e.g. https://gsp.example.in) and EINVOICE_IRP_TOKEN go together: both, or neither';

const PLATFORM_E_INVOICING_NEEDS_GST =
  "PLATFORM_E_INVOICING_SINCE needs the platform's GST registration: set PLATFORM_GSTIN, PLATFORM_LEGAL_NAME, PLATFORM_ADDRESS and PLATFORM_STATE too";

export const PLATFORM_E_INVOICING_NEEDS_PIN =
  'PLATFORM_E_INVOICING_SINCE needs a 6-digit PIN code in PLATFORM_ADDRESS (e.g. "Indiranagar, Bengaluru 560038"): the IRP refuses an e-invoice without the seller\'s PIN';

/** The settings an S3 bucket needs; S3_ENDPOINT and S3_FORCE_PATH_STYLE only add to them. */
const S3_REQUIRED = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/**
 * Half a bucket's settings would start a server that keeps images where other servers cannot see them
 * (or fails every upload): it refuses to start and names what is missing, never a value (keys are secret).
 */
function s3SettingsProblem(
  env: Partial<Record<(typeof S3_REQUIRED)[number] | 'S3_ENDPOINT', string>>,
): string | null {
  const missing = S3_REQUIRED.filter((name) => env[name] === undefined);
  const anySet = missing.length < S3_REQUIRED.length || env.S3_ENDPOINT !== undefined;
  if (!anySet || missing.length === 0) return null;
  return `${S3_REQUIRED.join(', ')} go together (with S3_ENDPOINT for a bucket not on AWS, e.g. S3_REGION=auto on Cloudflare R2): set all of them to keep uploaded images in the bucket, or none to keep them in DATA_DIR/uploads. Missing: ${missing.join(', ')}`;
}

/** Null when the IRP connection is set whole (URL and token) or not at all. */
function einvoiceIrpProblem(env: { EINVOICE_IRP_URL?: string; EINVOICE_IRP_TOKEN?: string }): string | null {
  return (env.EINVOICE_IRP_URL === undefined) === (env.EINVOICE_IRP_TOKEN === undefined)
    ? null
    : EINVOICE_IRP_INVALID;
}

type PlatformGstFields = Pick<
  z.output<typeof EnvFieldsShape>,
  'PLATFORM_GSTIN' | 'PLATFORM_LEGAL_NAME' | 'PLATFORM_ADDRESS' | 'PLATFORM_STATE'
>;

/** Null when the platform's GST settings are all absent, or all present and consistent. */
function platformGstProblem(env: PlatformGstFields): string | null {
  const values = [env.PLATFORM_GSTIN, env.PLATFORM_LEGAL_NAME, env.PLATFORM_ADDRESS, env.PLATFORM_STATE];
  if (values.every((v) => v === undefined)) return null;
  if (values.some((v) => v === undefined)) return PLATFORM_GST_INVALID;
  const gstin = env.PLATFORM_GSTIN!;
  const state = env.PLATFORM_STATE!;
  if (!isValidGstinValue(gstin) || !isIndianState(state)) return PLATFORM_GST_INVALID;
  return stateOfGstin(gstin) === state ? null : PLATFORM_GST_INVALID;
}

export const EnvSchema = EnvFields.refine(
  (env) => env.NODE_ENV !== 'production' || env.PUBLIC_URL !== undefined,
  {
    // Links in e-mail (password reset, tickets) must never be built from a request's Host header, which a
    // client can forge; in production the public origin is configured, not guessed.
    path: ['PUBLIC_URL'],
    message: PUBLIC_URL_REQUIRED,
  },
)
  .refine((env) => platformGstProblem(env) === null, {
    // A half-configured or mistyped registration would print wrong tax invoices: refuse to start.
    path: ['PLATFORM_GSTIN'],
    message: PLATFORM_GST_INVALID,
  })
  .refine((env) => env.PLATFORM_E_INVOICING_SINCE === undefined || env.PLATFORM_GSTIN !== undefined, {
    // E-invoices are issued by a GSTIN; the demo registration (filled in below) never counts.
    path: ['PLATFORM_E_INVOICING_SINCE'],
    message: PLATFORM_E_INVOICING_NEEDS_GST,
  })
  .refine(
    (env) =>
      env.PLATFORM_E_INVOICING_SINCE === undefined ||
      env.PLATFORM_ADDRESS === undefined ||
      pinOf(env.PLATFORM_ADDRESS) !== null,
    {
      // The IRP's schema 1.1 makes the seller's PIN mandatory: every fee e-invoice would be refused.
      path: ['PLATFORM_ADDRESS'],
      message: PLATFORM_E_INVOICING_NEEDS_PIN,
    },
  )
  .refine((env) => einvoiceIrpProblem(env) === null, {
    // Half an IRP connection would leave every e-invoice waiting while the operator thinks it is set up.
    path: ['EINVOICE_IRP_URL'],
    message: EINVOICE_IRP_INVALID,
  })
  .superRefine((env, ctx) => {
    const problem = s3SettingsProblem(env);
    if (problem) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: problem });
  })
  .transform((env) => {
    const seedDemoData = env.SEED_DEMO_DATA ?? env.NODE_ENV !== 'production';
    const host = env.HOST ?? (env.TRUST_PROXY ? '127.0.0.1' : '0.0.0.0');
    return { ...env, ...demoPlatformGst(env, seedDemoData), SEED_DEMO_DATA: seedDemoData, HOST: host };
  });

/**
 * The demo's platform GST registration: a made-up company with a well-formed GSTIN, clearly named as
 * a demo. Part of the demo data (SEED_DEMO_DATA, on by default outside production), so `npm start`
 * and the tests show the spec's Payment Summary (convenience fee + IGST 18 %) and issue the platform's
 * fee invoice. Never in production, where a real registration must be configured (or none: the fee is
 * then charged without GST). Set SEED_DEMO_DATA=false to see an unregistered platform locally.
 */
export const DEMO_PLATFORM_GST = {
  PLATFORM_GSTIN: '29AAACJ9999D1ZX',
  PLATFORM_LEGAL_NAME: 'Jalsa Demo Platform (demo registration, not a real GSTIN)',
  PLATFORM_ADDRESS: '1 Demo Road, Indiranagar, Bengaluru 560038',
  PLATFORM_STATE: 'Karnataka',
} as const;

function demoPlatformGst(env: PlatformGstFields & { NODE_ENV: string }, seedDemoData: boolean) {
  const unset = [env.PLATFORM_GSTIN, env.PLATFORM_LEGAL_NAME, env.PLATFORM_ADDRESS, env.PLATFORM_STATE].every(
    (v) => v === undefined,
  );
  return unset && seedDemoData && env.NODE_ENV !== 'production' ? DEMO_PLATFORM_GST : {};
}

export type Env = z.infer<typeof EnvSchema>;

/**
 * The settings from `source`, or an error listing every bad one. Reading the process's own environment
 * first adds `.env` from the working directory when there is one (as `.env.example` promises); a variable
 * already set in the environment wins over the file.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  readDotEnvInto(source);
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid environment:\n${issueLines(parsed.error).join('\n')}`);
  return parsed.data;
}

/** `.env` from the working directory into the process's environment, once, when reading that. */
export function readDotEnvInto(source: NodeJS.ProcessEnv): void {
  if (source !== process.env || dotEnvRead) return;
  dotEnvRead = true;
  if (existsSync('.env')) process.loadEnvFile('.env');
}
let dotEnvRead = false;

/** One line per bad setting: "PORT: Invalid input: expected number, received NaN". */
export function issueLines(error: z.ZodError): string[] {
  return error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
}
