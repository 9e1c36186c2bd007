import { existsSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IMAGE_MESSAGES } from '../../shared/event-images.ts';
import type { ConsoleWorld } from '../helpers/console-world.ts';
import { consoleWorldInOneWrite as consoleWorld } from '../helpers/engine-fixtures.ts';
import { fakeClientDir } from '../helpers/fake-client.ts';
import { makeImage, pixelBombPng, uploadImage } from '../helpers/images.ts';
import { listen } from '../helpers/listen.ts';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

// Runs on both engines (vitest.config.ts ON_BOTH_ENGINES): the rows it reads are the engine's own tables.
const { artists, events } = tablesFor(testEngine());

/**
 * Issue 14's image uploads: pictures are judged by their content, made into the sizes the pages use
 * as WebP without metadata, kept in DATA_DIR/uploads and served immutable; only the event's editors
 * may upload, and only from our own pages.
 */

const DETAILS = {
  name: 'Monsoon Ragas',
  category: 'concerts',
  city: 'Pune',
  eventLocationText: 'Ganesh Kala Krida Manch, Swargate',
  googleMapsEmbedLink: '',
  description: 'An evening of Hindustani classical music.',
  ageRestrictions: null,
  language: 'Hindi',
  termsAndConditions: [],
  artists: [{ name: 'Kaushiki Chakraborty' }],
  platformFeeRate: null,
};

/** The stored picture behind an /uploads URL, read back through the route. */
async function served(t: TestApp, url: string) {
  const res = await t.request(url);
  expect(res.status, url).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, metadata: await sharp(bytes).metadata() };
}

describe('uploading event pictures', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let owner: string;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    w = await consoleWorld(t);
    owner = w.people.owner.cookie;
  });
  afterEach(async () => {
    await t.close();
  });

  it.each([
    [
      'jpeg',
      'poster',
      1800,
      2400,
      [
        [600, 800],
        [1200, 1600],
      ],
    ],
    ['png', 'banner', 2000, 1000, [[1200, 600]]],
    ['webp', 'artist', 500, 640, [[300, 300]]],
  ] as const)('takes a %s %s and stores each size as WebP', async (format, kind, width, height, sizes) => {
    const res = await uploadImage(t, w.event.eventId, kind, await makeImage(format, width, height), {
      cookie: owner,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.url).toMatch(
      new RegExp(`^/uploads/[0-9a-f]{32}\\.${sizes[0]![0]}x${sizes[0]![1]}\\.webp$`),
    );
    expect(res.body.sizes!.map((s) => [s.width, s.height])).toEqual(sizes);
    for (const size of res.body.sizes!) {
      const { res: file, metadata } = await served(t, size.url);
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', size.width, size.height]);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(existsSync(path.join(t.dataDir, 'uploads', path.basename(size.url)))).toBe(true);
    }
  });

  it('finishes uploads sent at once (two are encoded at a time, the others wait their turn)', async () => {
    const images = await Promise.all([500, 520, 540, 560, 580].map((side) => makeImage('png', side, side)));
    const answers = await Promise.all(
      images.map((image) => uploadImage(t, w.event.eventId, 'artist', image, { cookie: owner })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.url)).size).toBe(5);
  });

  it('turns a photo upright by its EXIF orientation and strips its metadata', async () => {
    // Stored 2400 wide × 1800 high with "rotate 90° clockwise to view": upright it is a portrait poster.
    const sideways = await makeImage('jpeg', 2400, 1800, { orientation: 6 });
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const res = await uploadImage(t, w.event.eventId, 'poster', sideways, { cookie: owner });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { bytes, metadata } = await served(t, res.body.sizes![1]!.url);
    expect([metadata.width, metadata.height]).toEqual([1200, 1600]);
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    // The dark stripe was along the stored picture's top, which is the upright picture's right edge.
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(at(info.width - 5, 800)).toBeLessThan(60);
    expect(at(5, 800)).toBeGreaterThan(180);
  });

  it('stores one picture uploaded twice once, under the same names', async () => {
    const image = await makeImage('png', 800, 800);
    const first = await uploadImage(t, w.event.eventId, 'artist', image, { cookie: owner });
    const second = await uploadImage(t, w.event.eventId, 'artist', image, { cookie: owner });
    expect(second.body).toEqual(first.body);
  });

  it.each([
    ['a text file named .jpg', () => new TextEncoder().encode('just some notes, not a photo\n'.repeat(50))],
    [
      'an SVG',
      () =>
        new TextEncoder().encode(
          '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200"><rect width="900" height="1200"/></svg>',
        ),
    ],
    ['a GIF', () => makeImage('gif', 900, 1200)],
    ['an empty body', () => new Uint8Array(0)],
  ])('refuses %s with a clear message and stores nothing', async (_what, make) => {
    const res = await uploadImage(t, w.event.eventId, 'poster', await make(), { cookie: owner });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(IMAGE_MESSAGES.notAnImage);
    expect(await t.deps.images.exists('x')).toBe(false);
  });

  it('refuses a JPEG whose bytes are broken after its signature', async () => {
    const image = await makeImage('jpeg', 900, 1200);
    const broken = new Uint8Array(image.subarray(0, 200));
    const res = await uploadImage(t, w.event.eventId, 'poster', broken, { cookie: owner });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(IMAGE_MESSAGES.unreadable);
  });

  it('refuses a picture claiming 100 megapixels from its header, before decoding it', async () => {
    const bomb = pixelBombPng(10_000, 10_000);
    expect(bomb.byteLength).toBeLessThan(100_000);
    const started = performance.now();
    const res = await uploadImage(t, w.event.eventId, 'poster', bomb, { cookie: owner });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(IMAGE_MESSAGES.tooManyPixels);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('refuses a picture smaller than its kind needs', async () => {
    const res = await uploadImage(t, w.event.eventId, 'banner', await makeImage('png', 400, 200), {
      cookie: owner,
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(IMAGE_MESSAGES.tooSmall('banner'));
  });

  it('refuses an unknown kind', async () => {
    const res = await uploadImage(t, w.event.eventId, 'favicon', await makeImage('png', 800, 800), {
      cookie: owner,
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(IMAGE_MESSAGES.kindInvalid);
  });

  it('refuses an upload without an Origin, or from another site (CSRF)', async () => {
    const image = await makeImage('png', 800, 800);
    for (const origin of [null, 'https://evil.example']) {
      const res = await uploadImage(t, w.event.eventId, 'artist', image, { cookie: owner, origin });
      expect(res.status, String(origin)).toBe(403);
      expect(res.body.error?.message).toBe('Cross-origin request refused');
    }
  });

  it('refuses a body declared over 8 MB at once, with a clear message', async () => {
    const res = await uploadImage(t, w.event.eventId, 'poster', new Uint8Array(9 * 1024 * 1024), {
      cookie: owner,
    });
    expect(res.status).toBe(413);
    expect(res.body.error?.message).toBe(IMAGE_MESSAGES.tooLarge);
  });

  it('limits uploads per account', async () => {
    const notAnImage = new TextEncoder().encode('nope');
    for (let i = 0; i < 60; i += 1) {
      expect((await uploadImage(t, w.event.eventId, 'poster', notAnImage, { cookie: owner })).status).toBe(
        400,
      );
    }
    const refused = await uploadImage(t, w.event.eventId, 'poster', notAnImage, { cookie: owner });
    expect(refused.status).toBe(429);
    expect(refused.body.error?.message).toBe(IMAGE_MESSAGES.tooMany);
    // Another editor of the same event is counted apart.
    const other = await uploadImage(t, w.event.eventId, 'poster', notAnImage, {
      cookie: w.people['co-organiser'].cookie,
    });
    expect(other.status).toBe(400);
  });
});

describe('a 50 MB upload over a real socket', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    server = await listen(t);
  });
  afterEach(async () => {
    await server.close();
    await t.close();
  });

  it('is refused with 413 while it is still arriving (chunked, no length), and the server goes on answering', async () => {
    const w = await consoleWorld(t);
    const url = new URL(`/api/organiser/events/${w.event.eventId}/images?kind=poster`, server.url);
    const started = performance.now();
    const { status, body, sent } = await new Promise<{ status: number; body: string; sent: number }>(
      (resolve, reject) => {
        let sent = 0;
        const req = httpRequest(
          url,
          {
            method: 'POST',
            headers: {
              cookie: w.people.owner.cookie,
              origin: server.url,
              'content-type': 'image/jpeg',
              'transfer-encoding': 'chunked',
            },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk) => {
              text += chunk;
            });
            res.on('end', () => {
              req.destroy();
              resolve({ status: res.statusCode!, body: text, sent });
            });
          },
        );
        req.on('error', (error) => {
          // The server may close the connection once it has answered; the answer is what counts.
          if (!('code' in error) || (error.code !== 'EPIPE' && error.code !== 'ECONNRESET')) reject(error);
        });
        const chunk = Buffer.alloc(1024 * 1024, 0xff);
        const pump = () => {
          while (sent < 50 * 1024 * 1024 && !req.destroyed) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          if (!req.destroyed) req.end();
        };
        pump();
      },
    );
    expect(status).toBe(413);
    expect(JSON.parse(body).error.message).toBe(IMAGE_MESSAGES.tooLarge);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(sent).toBeGreaterThan(8 * 1024 * 1024);
    const health = await fetch(new URL('/healthz', server.url));
    expect(health.status).toBe(200);
  });
});

describe('saving pictures on the event', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let clientDir: string;
  beforeEach(async () => {
    clientDir = fakeClientDir();
    t = await createTestAppOn(testEngine(), {}, { clientDir });
    w = await consoleWorld(t);
  });
  afterEach(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });
  const editor = async (name: string, input: unknown) =>
    callProcedure(t, 'mutation', `organiser.${name}`, input, { cookie: w.people.owner.cookie });

  it('saves uploaded URLs, shows them to buyers, and gives link previews the large picture', async () => {
    const eventId = w.event.eventId;
    const upload = async (kind: string, width: number, height: number) =>
      (
        await uploadImage(t, eventId, kind, await makeImage('jpeg', width, height), {
          cookie: w.people.owner.cookie,
        })
      ).body;
    const poster = await upload('poster', 900, 1200);
    const banner = await upload('banner', 1600, 800);
    const photo = await upload('artist', 400, 400);
    const [current] = await t.deps.db.select().from(events).where(eq(events.id, eventId));
    const version = current!.version;
    const saved = await editor('updateDetails', {
      eventId,
      version,
      ...DETAILS,
      posterUrl: poster.url,
      bannerUrl: null,
      artists: [{ name: 'Kaushiki Chakraborty', imageUrl: photo.url }],
    });
    expect(saved.status, JSON.stringify(saved.body.error)).toBe(200);
    const editable = await callProcedure(
      t,
      'query',
      'organiser.editableEvent',
      { eventId },
      {
        cookie: w.people.owner.cookie,
      },
    );
    expect(editable.data).toMatchObject({
      posterUrl: poster.url,
      bannerUrl: null,
      artists: [{ name: 'Kaushiki Chakraborty', imageUrl: photo.url }],
    });
    const byId = (await callProcedure(t, 'query', 'events.byId', { id: eventId })).data as {
      posterUrl: string;
      artistLineup: { imageUrl: string }[];
    };
    expect(byId.posterUrl).toBe(poster.url);
    expect(byId.artistLineup[0]!.imageUrl).toBe(photo.url);

    // Without a banner, a link preview shows the poster's large size, as an absolute URL.
    const page = await (await t.request(`/events/${eventId}`)).text();
    expect(page).toContain(`<meta property="og:image" content="http://localhost${poster.sizes![1]!.url}">`);

    // Saving again without naming the pictures keeps them; a banner then leads the previews.
    const next = (saved.data as { version: number }).version;
    expect(
      (await editor('updateDetails', { eventId, version: next, ...DETAILS, bannerUrl: banner.url })).status,
    ).toBe(200);
    const [row] = await t.deps.db.select().from(events).where(eq(events.id, eventId));
    expect([row!.posterUrl, row!.imagesUrls]).toEqual([poster.url, [banner.url]]);
    const [artist] = await t.deps.db.select().from(artists).where(eq(artists.eventId, eventId));
    expect(artist!.imageUrl).toBe(photo.url);
    const withBanner = await (await t.request(`/events/${eventId}`)).text();
    expect(withBanner).toContain(`<meta property="og:image" content="http://localhost${banner.url}">`);
  });

  it.each([
    ['another site', 'https://images.example.com/poster.jpg'],
    ['a data URL', 'data:image/png;base64,AAAA'],
    ['an upload of the wrong size for a poster', `/uploads/${'a'.repeat(32)}.1200x600.webp`],
    ['a path that climbs out', `/uploads/../jalsa.db`],
  ])('refuses a poster URL from %s', async (_what, url) => {
    const res = await editor('updateDetails', {
      eventId: w.event.eventId,
      version: 1,
      ...DETAILS,
      posterUrl: url,
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors).toEqual({ posterUrl: IMAGE_MESSAGES.notOurs });
  });
});

describe('serving /uploads', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it.each([
    `/uploads/${'0'.repeat(32)}.600x800.webp`,
    '/uploads/jalsa.db',
    '/uploads/..%2Fjalsa.db',
    '/uploads/%2e%2e%2fjalsa.db',
    `/uploads/${'A'.repeat(32)}.600x800.webp`,
    `/uploads/${'0'.repeat(32)}.601x800.webp`,
    '/uploads/',
  ])('answers 404 to %s', async (path) => {
    const res = await t.request(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toBe('image/webp');
  });

  it('is allowed by the Content-Security-Policy (same origin)', async () => {
    const csp = (await t.request('/healthz')).headers.get('content-security-policy')!;
    expect(csp).toMatch(/img-src 'self'/);
  });
});
