import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, DESKTOP, launchBrowser, newContext, type Page, PHONE } from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';

// The static shell the server puts in #root (src-server/http/page-shell.ts): what the browser paints
// before the JavaScript runs, and that React then replaces without moving anything.

const EVENT_PATH = '/events/retro-bollywood-mumbai';

describe('first paint before JavaScript', () => {
  let browser: Browser;
  const baseURL = e2eServer().baseURL;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function withoutScripts(viewport: { width: number; height: number }) {
    const context = await browser.newContext({ baseURL, viewport, javaScriptEnabled: false });
    return { context, page: await context.newPage() };
  }

  // The first picture after the header's logo: the banner, or the event's picture.
  const heroBox = async (page: Page) =>
    (await page.locator('#root img:not([src="/favicon.svg"])').first().boundingBox())!;
  const preloaded = (page: Page) =>
    page
      .locator('link[rel="preload"][as="image"]')
      .evaluateAll((links) => links.map((l) => l.getAttribute('href')));

  it('home: the header and the banner come in the HTML, the banner preloaded', async () => {
    const { context, page } = await withoutScripts(PHONE);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Live it up, India.' }).waitFor();
    await page.getByRole('link', { name: 'Jalsa' }).waitFor();
    await expect(page.locator('#root img[fetchpriority="high"]').getAttribute('src')).resolves.toBe(
      '/images/banner-home.webp',
    );
    await expect(preloaded(page)).resolves.toEqual(['/images/banner-home.webp']);
    await context.close();
  });

  it("an event page: the event's picture and name come in the HTML, the picture preloaded", async () => {
    const { context, page } = await withoutScripts(PHONE);
    await page.goto(EVENT_PATH);
    await page.getByRole('heading', { level: 1, name: 'Retro Bollywood Live' }).waitFor();
    const src = await page.locator('#root img[fetchpriority="high"]').getAttribute('src');
    expect(src).toMatch(/^\/images\/events\/.+\.webp$/);
    await expect(preloaded(page)).resolves.toEqual([src]);
    await context.close();
  });

  it('other pages get the header only, and nothing preloaded', async () => {
    const { context, page } = await withoutScripts(PHONE);
    await page.goto('/explore');
    await page.getByRole('link', { name: 'Jalsa' }).waitFor();
    await expect(page.locator('#root h1').count()).resolves.toBe(0);
    await expect(preloaded(page)).resolves.toEqual([]);
    await context.close();
  });

  // Issue 39: the first screen's data comes inside the page, and its cards paint with no request for it.
  it('home and an event page paint their first data with no second round trip for it', async () => {
    const { context } = await newContext(browser, baseURL, PHONE);
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/trpc/')) asked.push(url.pathname.slice('/trpc/'.length));
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Happening near me' }).waitFor();
    await page.goto(EVENT_PATH);
    await page.getByRole('heading', { level: 1, name: 'Retro Bollywood Live' }).waitFor();
    // React's page, not the shell: the shell's loading line has gone.
    await page.locator('#root p[role="status"]', { hasText: 'Loading...' }).waitFor({ state: 'detached' });
    const firstData = asked
      .flatMap((p) => p.split(','))
      .filter((p) => ['events.home', 'events.byId'].includes(p));
    expect(firstData).toEqual([]);
    await context.close();
  });

  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`React takes over where the shell painted, with no layout shift (${label})`, async () => {
      for (const [path, ready] of [
        ['/', 'Happening near me'],
        [EVENT_PATH, 'Retro Bollywood Live'],
      ] as const) {
        const before = await withoutScripts(viewport);
        await before.page.goto(path);
        const shellHero = await heroBox(before.page);
        await before.context.close();

        const { context } = await newContext(browser, baseURL, viewport);
        const page = await context.newPage();
        await page.addInitScript(() => {
          const w = window as unknown as { shifts: number };
          w.shifts = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) {
              // The header's sign-in menu settling after the session check (React's own doing, not
              // the shell's) moves only header items; anything else moving counts.
              const sources = (entry as unknown as { sources: { node: Node | null }[] }).sources;
              const outside = sources.some((s) => !s.node?.parentElement?.closest('header'));
              if (outside) w.shifts += (entry as unknown as { value: number }).value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(path);
        // React's own <main id="main"> (the shell has none), then the page's own content.
        await page.locator('#main').waitFor();
        await page.getByRole('heading', { name: ready }).first().waitFor();
        // The shell is gone: the page's own elements replaced it.
        await expect(page.locator('#root > header').count()).resolves.toBe(0);
        expect(await heroBox(page)).toEqual(shellHero);
        await expect(page.evaluate(() => (window as unknown as { shifts: number }).shifts)).resolves.toBe(0);
        await context.close();
      }
    });
  }
});
