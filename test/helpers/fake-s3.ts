import { createHash } from 'node:crypto';
import { AwsV4Signer } from 'aws4fetch';
import { HttpResponse, http } from 'msw';

/** The settings of the fake bucket, as the environment gives them (path style, as MinIO wants). */
export const S3_ENV = {
  S3_BUCKET: 'jalsa-images',
  S3_REGION: 'ap-south-1',
  S3_ENDPOINT: 'https://storage.example.test',
  S3_ACCESS_KEY_ID: 'AKIAJALSATEST0000001',
  S3_SECRET_ACCESS_KEY: 'test-secret-key/of+forty-characters-0000',
  S3_FORCE_PATH_STYLE: 'true',
} as const;

export interface StoredObject {
  bytes: Uint8Array;
  contentType: string | null;
  cacheControl: string | null;
}

/**
 * An S3 bucket at the network edge (msw): objects in a Map, PUT / GET / HEAD by key, and every request's
 * AWS Signature V4 checked as S3 checks it: the Authorization header must be well-formed, name this
 * access key, region and service, and carry the signature the secret key gives for the request's
 * method, path, signed headers and payload hash (re-computed here with aws4fetch's signer); the payload
 * hash must be the body's. Anything else is refused with S3's 403 SignatureDoesNotMatch.
 */
export function fakeS3Bucket(
  settings: {
    origin: string;
    pathPrefix: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
  } = {
    origin: S3_ENV.S3_ENDPOINT,
    pathPrefix: `/${S3_ENV.S3_BUCKET}/`,
    region: S3_ENV.S3_REGION,
    accessKeyId: S3_ENV.S3_ACCESS_KEY_ID,
    secretAccessKey: S3_ENV.S3_SECRET_ACCESS_KEY,
  },
) {
  const objects = new Map<string, StoredObject>();
  const requests: { method: string; key: string; signed: boolean }[] = [];
  const handler = http.all(`${settings.origin}${settings.pathPrefix}:key`, async ({ request, params }) => {
    const key = decodeURIComponent(String(params.key));
    const body = request.method === 'PUT' ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const signed = await signatureHolds(request, body, settings);
    requests.push({ method: request.method, key, signed });
    if (!signed)
      return s3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match');
    const stored = objects.get(key);
    if (request.method === 'PUT') {
      objects.set(key, {
        bytes: body!,
        contentType: request.headers.get('content-type'),
        cacheControl: request.headers.get('cache-control'),
      });
      return new HttpResponse(null, { status: 200, headers: { etag: '"stored"' } });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return s3Error(405, 'MethodNotAllowed', '');
    if (!stored) return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    const headers = {
      'content-type': stored.contentType ?? 'application/octet-stream',
      'content-length': String(stored.bytes.byteLength),
    };
    return request.method === 'HEAD'
      ? new HttpResponse(null, { status: 200, headers })
      : new HttpResponse(stored.bytes, { status: 200, headers });
  });
  return { objects, requests, handler };
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

async function signatureHolds(
  request: Request,
  body: Uint8Array | undefined,
  settings: { region: string; accessKeyId: string; secretAccessKey: string },
): Promise<boolean> {
  const match = AUTHORIZATION.exec(request.headers.get('authorization') ?? '');
  const date = request.headers.get('x-amz-date') ?? '';
  const payloadHash = request.headers.get('x-amz-content-sha256');
  if (!match || !/^\d{8}T\d{6}Z$/.test(date) || !payloadHash) return false;
  const [, accessKeyId, day, region, signedHeaders] = match;
  if (accessKeyId !== settings.accessKeyId || region !== settings.region || day !== date.slice(0, 8))
    return false;
  const names = signedHeaders!.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256'))
    return false;
  const expectedHash = body
    ? createHash('sha256').update(body).digest('hex')
    : createHash('sha256').digest('hex');
  if (payloadHash !== expectedHash && payloadHash !== 'UNSIGNED-PAYLOAD') return false;
  // The same request signed with the secret: only the headers it says it signed, at its own date.
  const headers = new Headers();
  for (const name of names) if (name !== 'host') headers.set(name, request.headers.get(name) ?? '');
  const expected = await new AwsV4Signer({
    method: request.method,
    url: request.url,
    headers,
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    service: 's3',
    region: settings.region,
    datetime: date,
  }).sign();
  return expected.headers.get('authorization') === request.headers.get('authorization');
}

function s3Error(status: number, code: string, message: string) {
  return new HttpResponse(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    {
      status,
      headers: { 'content-type': 'application/xml' },
    },
  );
}
