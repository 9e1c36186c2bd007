import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOME_BANNER } from '../../shared/home-banner.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The attributes of the first tag in `html` matching `pattern`. */
function attributesOf(html: string, pattern: RegExp): Record<string, string> {
  const tag = pattern.exec(html)?.[0];
  if (!tag) throw new Error(`no tag matches ${pattern}`);
  return Object.fromEntries([...tag.matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

/** The srcset candidate a browser takes for a slot of `slotPx` CSS pixels at `dpr`: the smallest wide enough. */
function pick(srcset: string, slotPx: number, dpr: number): string {
  const candidates = srcset
    .split(',')
    .map((c) => c.trim().split(/\s+/))
    .map(([url, w]) => ({ url: url!, width: Number.parseInt(w!, 10) }))
    .sort((a, b) => a.width - b.width);
  return (candidates.find((c) => c.width >= slotPx * dpr) ?? candidates.at(-1)!).url;
}

// Issue 39: the home page's largest paint (the banner) is painted by the server's HTML and fetched
// first, sized for the phone, with nothing in the page holding the parser up before it.
describe('the largest paint in the first response', () => {
  let t: TestApp;
  let clientDir: string;
  beforeEach(async () => {
    // The client's real page template, as the build copies it.
    clientDir = mkdtempSync(path.join(tmpdir(), 'jalsa-client-'));
    copyFileSync(path.join(ROOT, 'src-client/index.html'), path.join(clientDir, 'index.html'));
    t = await createTestAppOn(testEngine(), {}, { clientDir });
  });
  afterEach(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it("home: the banner is preloaded at high priority with the same choice of sizes as the shell's image", async () => {
    const html = await (await t.request('/')).text();
    const preload = attributesOf(html, /<link rel="preload" as="image"[^>]*>/);
    const image = attributesOf(html, /<img [^>]*fetchpriority="high"[^>]*>/);

    expect(preload).toMatchObject({
      href: HOME_BANNER.src,
      imagesrcset: HOME_BANNER.srcSet,
      imagesizes: HOME_BANNER.sizes,
      fetchpriority: 'high',
    });
    expect(image).toMatchObject({
      src: HOME_BANNER.src,
      srcset: HOME_BANNER.srcSet,
      sizes: HOME_BANNER.sizes,
    });
    // The preload is in the head, before anything else the page fetches.
    expect(html.indexOf('rel="preload"')).toBeLessThan(html.indexOf('<script'));
    expect(html.indexOf('rel="preload"')).toBeLessThan(html.indexOf('</head>'));

    // Lighthouse's phone (412 px wide at 1.75×): the 563 px slot takes the 1000 px file, not the 1600 px one.
    expect(pick(HOME_BANNER.srcSet, 563, 1.75)).toBe('/images/banner-home-1000.webp');
    expect(pick(HOME_BANNER.srcSet, 1248, 1)).toBe('/images/banner-home.webp');
    for (const candidate of HOME_BANNER.srcSet.split(',')) {
      expect(existsSync(path.join(ROOT, 'public', candidate.trim().split(' ')[0]!))).toBe(true);
    }
  });

  it('an event page preloads its own picture; no page has a script that holds the parser', async () => {
    const ev = await createTicketedEventOn(t.deps.db, { name: 'Sunday Jazz' });
    const eventHtml = await (await t.request(`/events/${ev.eventId}`)).text();
    const preload = attributesOf(eventHtml, /<link rel="preload" as="image"[^>]*>/);
    const image = attributesOf(eventHtml, /<img [^>]*fetchpriority="high"[^>]*>/);
    expect(preload).toMatchObject({ href: image.src, fetchpriority: 'high' });

    for (const html of [eventHtml, await (await t.request('/')).text()]) {
      const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="[^"]*"[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      // A classic script without defer stops the parser until it has come and run: on slow 4G that
      // is a round trip before the page is read to its end.
      for (const script of scripts) expect(script).toMatch(/\bdefer\b|type="module"/);
    }
  });
});
