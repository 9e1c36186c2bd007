import { existsSync } from 'node:fs';
import path from 'node:path';
import { delay, HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IMAGE_MESSAGES } from '../../shared/event-images.ts';
import { createS3ImageStorage } from '../../src-server/integrations/s3/s3-image-storage.ts';
import { ImageStorageUnavailable } from '../../src-server/services/uploads/image-storage.ts';
import { type ConsoleWorld, createConsoleWorld } from '../helpers/console-world.ts';
import { fakeS3Bucket, S3_ENV } from '../helpers/fake-s3.ts';
import { makeImage, uploadImage } from '../helpers/images.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { mswServer } from '../mocks/server.ts';

/**
 * Issue 38: uploaded images in an S3-compatible bucket every server sees (ADR 0049). The bucket stands
 * at the network edge (msw, test/helpers/fake-s3.ts) and refuses any request whose AWS Signature V4
 * does not hold; the app is the real one, with the S3_* settings in its environment.
 */

const STORAGE = {
  bucket: S3_ENV.S3_BUCKET,
  region: S3_ENV.S3_REGION,
  accessKeyId: S3_ENV.S3_ACCESS_KEY_ID,
  secretAccessKey: S3_ENV.S3_SECRET_ACCESS_KEY,
  endpoint: S3_ENV.S3_ENDPOINT,
  forcePathStyle: true,
};
const KEY = `${'ab'.repeat(16)}.600x800.webp`;

describe('uploaded images in an S3 bucket', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let bucket: ReturnType<typeof fakeS3Bucket>;
  beforeEach(() => {
    bucket = fakeS3Bucket();
    mswServer.use(bucket.handler);
    t = createTestApp(S3_ENV);
    w = createConsoleWorld(t);
  });
  afterEach(() => t.close());

  it("stores an organiser's upload in the bucket, signed, and serves it back from /uploads", async () => {
    const res = await uploadImage(t, w.event.eventId, 'poster', await makeImage('jpeg', 1200, 1600), {
      cookie: w.people.owner.cookie,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const keys = res.body.sizes!.map((size) => path.basename(size.url));
    expect([...bucket.objects.keys()].sort()).toEqual([...keys].sort());
    expect(bucket.requests.every((r) => r.signed)).toBe(true);
    expect(bucket.requests.filter((r) => r.method === 'PUT')).toHaveLength(2);
    for (const key of keys) {
      const stored = bucket.objects.get(key)!;
      expect([stored.contentType, stored.cacheControl]).toEqual([
        'image/webp',
        'public, max-age=31536000, immutable',
      ]);
      expect(existsSync(path.join(t.dataDir, 'uploads', key))).toBe(false);
      const served = await t.request(`/uploads/${key}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(stored.bytes);
    }
  });

  it('serves from another server what one server stored (each has its own DATA_DIR)', async () => {
    const res = await uploadImage(t, w.event.eventId, 'artist', await makeImage('png', 400, 400), {
      cookie: w.people.owner.cookie,
    });
    expect(res.status).toBe(201);
    const other = createTestApp(S3_ENV);
    try {
      const served = await other.request(res.body.url!);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
    } finally {
      other.close();
    }
  });

  it('answers 404 for an image name the bucket does not hold', async () => {
    const res = await t.request(`/uploads/${KEY}`);
    expect(res.status).toBe(404);
    expect(bucket.requests).toEqual([{ method: 'GET', key: KEY, signed: true }]);
  });

  it('answers 503 with a clear message, at once, when the bucket cannot be reached', async () => {
    mswServer.use(http.all(`${S3_ENV.S3_ENDPOINT}/*`, () => HttpResponse.error()));
    const started = performance.now();
    const upload = await uploadImage(t, w.event.eventId, 'poster', await makeImage('jpeg', 900, 1200), {
      cookie: w.people.owner.cookie,
    });
    expect([upload.status, upload.body.error?.message]).toEqual([503, IMAGE_MESSAGES.storageUnavailable]);
    const served = await t.request(`/uploads/${KEY}`);
    expect(served.status).toBe(503);
    expect(served.headers.get('retry-after')).toBe('60');
    expect(((await served.json()) as { error: { message: string } }).error.message).toBe(
      IMAGE_MESSAGES.storageUnavailable,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('the S3 image storage on its own', () => {
  it('gives up on a bucket that never answers after its timeout, naming the bucket', async () => {
    mswServer.use(
      http.all(`${S3_ENV.S3_ENDPOINT}/*`, async () => {
        await delay('infinite');
        return HttpResponse.text('never');
      }),
    );
    const storage = createS3ImageStorage({ ...STORAGE, timeoutMs: 200 });
    const started = performance.now();
    const error = await storage.get(KEY).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ImageStorageUnavailable);
    expect((error as Error).message).toBe(
      `S3 bucket "jalsa-images" at storage.example.test did not answer within 0.2 s to GET ${KEY}`,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("reports the bucket's refusal (a wrong secret key) with S3's own code, never the key", async () => {
    const bucket = fakeS3Bucket();
    mswServer.use(bucket.handler);
    const storage = createS3ImageStorage({
      ...STORAGE,
      secretAccessKey: 'not-the-secret-key-0000000000000000000000',
    });
    const error = (await storage.put(KEY, new Uint8Array([1, 2, 3])).catch((err: unknown) => err)) as Error;
    expect(error).toBeInstanceOf(ImageStorageUnavailable);
    expect(error.message).toMatch(
      /^S3 bucket "jalsa-images" at storage\.example\.test answered HTTP 403 \(SignatureDoesNotMatch: .+\) to PUT /,
    );
    expect(error.message).not.toContain('not-the-secret');
    expect(bucket.objects.size).toBe(0);
  });

  it("addresses AWS S3's own endpoint by bucket host name when no endpoint is set", async () => {
    const bucket = fakeS3Bucket({
      origin: 'https://jalsa-images.s3.ap-south-1.amazonaws.com',
      pathPrefix: '/',
      region: STORAGE.region,
      accessKeyId: STORAGE.accessKeyId,
      secretAccessKey: STORAGE.secretAccessKey,
    });
    mswServer.use(bucket.handler);
    const storage = createS3ImageStorage({ ...STORAGE, endpoint: undefined, forcePathStyle: false });
    expect(await storage.exists(KEY)).toBe(false);
    expect(await storage.get(KEY)).toBeNull();
    await storage.put(KEY, new Uint8Array([7, 8, 9]));
    expect(await storage.exists(KEY)).toBe(true);
    expect(await storage.get(KEY)).toEqual(new Uint8Array([7, 8, 9]));
    expect(bucket.requests.map((r) => [r.method, r.signed])).toEqual([
      ['HEAD', true],
      ['GET', true],
      ['PUT', true],
      ['HEAD', true],
      ['GET', true],
    ]);
  });
});
