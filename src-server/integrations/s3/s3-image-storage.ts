import { createHash } from 'node:crypto';
import { AwsClient } from 'aws4fetch';
import {
  type ImageStorage,
  ImageStorageUnavailable,
  requireImageKey,
} from '../../services/uploads/image-storage.ts';

export interface S3Settings {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The service's origin (R2, MinIO, Spaces, B2); unset: AWS S3's own endpoint for `region`. */
  endpoint?: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO, and most self-hosted stores). */
  forcePathStyle: boolean;
  /** Each call, its body included, ends by then; an upload or an image request never waits longer. */
  timeoutMs?: number;
}

/** The settings of the bucket the environment names, or null when it names none (env.ts checks they go together). */
export function s3SettingsOf(env: {
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_ENDPOINT?: string;
  S3_FORCE_PATH_STYLE: boolean;
}): S3Settings | null {
  const { S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = env;
  if (!S3_BUCKET || !S3_REGION || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) return null;
  return {
    bucket: S3_BUCKET,
    region: S3_REGION,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  };
}

/** Names never change their bytes (content-addressed), so anyone may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Images as objects in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Backblaze B2, DigitalOcean
 * Spaces): `put` is a PUT Object, `get` a GET (404: none), `exists` a HEAD, each signed with AWS
 * Signature V4 by aws4fetch over the platform's fetch (docs/decisions/0049-s3-image-storage.md). No
 * retries: a store that fails or takes longer than `timeoutMs` gives ImageStorageUnavailable at once,
 * naming the bucket and what it answered, and the route answers 503 instead of holding the request.
 */
export function createS3ImageStorage(settings: S3Settings): ImageStorage {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    service: 's3',
    region: settings.region,
    retries: 0,
  });
  const base = bucketBase(settings);
  const store = `S3 bucket "${settings.bucket}" at ${new URL(base).host}`;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  /** One signed request; the timeout covers reading the answer's body in `read` as well. */
  const call = async <T>(
    what: string,
    key: string,
    init: { method: string; headers?: Record<string, string>; body?: Uint8Array<ArrayBuffer> },
    read: (res: Response) => Promise<T>,
  ): Promise<T> => {
    const url = `${base}/${encodeURIComponent(requireImageKey(key))}`;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await fetch(await client.sign(url, init), { signal });
      return await read(res);
    } catch (err) {
      if (err instanceof ImageStorageUnavailable) throw err;
      const reason =
        signal.aborted || (err as Error).name === 'TimeoutError'
          ? `did not answer within ${timeoutMs / 1000} s`
          : `could not be reached (${causeOf(err)})`;
      throw new ImageStorageUnavailable(`${store} ${reason} to ${what} ${key}`, { cause: err });
    }
  };
  const refused = async (what: string, key: string, res: Response) =>
    new ImageStorageUnavailable(`${store} answered ${await answerOf(res)} to ${what} ${key}`);

  return {
    async put(key, bytes) {
      const body = new Uint8Array(bytes);
      await call(
        'PUT',
        key,
        {
          method: 'PUT',
          headers: {
            'content-type': contentTypeOf(key),
            'cache-control': IMMUTABLE,
            // The body's hash is signed too, so the store refuses bytes changed on the way.
            'x-amz-content-sha256': createHash('sha256').update(body).digest('hex'),
          },
          body,
        },
        async (res) => {
          if (!res.ok) throw await refused('PUT', key, res);
          await drain(res);
        },
      );
    },
    async get(key) {
      return call('GET', key, { method: 'GET' }, async (res) => {
        if (res.status === 404) {
          await drain(res);
          return null;
        }
        if (!res.ok) throw await refused('GET', key, res);
        return new Uint8Array(await res.arrayBuffer());
      });
    },
    async exists(key) {
      return call('HEAD', key, { method: 'HEAD' }, async (res) => {
        if (res.status === 404) return false;
        if (!res.ok) throw await refused('HEAD', key, res);
        return true;
      });
    },
  };
}

/** The URL objects hang under, without a trailing slash. */
function bucketBase(settings: S3Settings): string {
  const endpoint = new URL(settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`);
  const bucket = encodeURIComponent(settings.bucket);
  const path = endpoint.pathname.replace(/\/+$/, '');
  if (settings.forcePathStyle) return `${endpoint.origin}${path}/${bucket}`;
  return `${endpoint.protocol}//${bucket}.${endpoint.host}${path}`;
}

function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return (
    { webp: 'image/webp', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' }[extension] ??
    'application/octet-stream'
  );
}

/**
 * Reads a short answer's body to its end (under the call's timeout), so its connection is free for the
 * next call. Not `body.cancel()`: that can wait for a stream nothing will ever end.
 */
async function drain(res: Response): Promise<void> {
  await res.arrayBuffer();
}

/** "HTTP 403 (AccessDenied: Access Denied)" from S3's XML error body, when it has one. */
async function answerOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]{1,300})<\/Message>/.exec(text)?.[1];
  const detail = [code, message].filter(Boolean).join(': ');
  return `HTTP ${res.status}${detail ? ` (${detail})` : ''}`;
}

/** fetch's "fetch failed" hides the reason (ECONNREFUSED, ENOTFOUND…) in its cause. */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message ?? String(err);
}
