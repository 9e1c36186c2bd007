import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, launchBrowser, newContext } from '../helpers/browser.ts';

describe('the built app in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('serves the home page under its own Content Security Policy', async () => {
    const { context, cspViolations } = await newContext(browser, inject('baseURL'));
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Jalsa' }).first().isVisible()).resolves.toBe(true);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('shows a not-found page for an unknown path', async () => {
    const { context } = await newContext(browser, inject('baseURL'));
    const page = await context.newPage();
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' }).isVisible()).resolves.toBe(true);
    await context.close();
  });
});
