import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser, newContext } from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';

describe('the built app in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('serves the home page under its own Content Security Policy', async () => {
    const { context, cspViolations } = await newContext(browser, e2eServer().baseURL);
    const page = await context.newPage();
    await page.goto('/');
    // Event cards come from React with data, after the static shell.
    await page.locator('a[href^="/events/"]').first().waitFor();
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('shows a not-found page for an unknown path', async () => {
    const { context } = await newContext(browser, e2eServer().baseURL);
    const page = await context.newPage();
    await page.goto('/no/such/page');
    // The server's static shell paints first; the not-found screen arrives when React takes over.
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await context.close();
  });
});
