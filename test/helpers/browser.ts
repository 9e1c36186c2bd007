import { existsSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
  type Route,
} from 'playwright-core';

/** Debian's full Chromium: for what only the whole browser does (the gate's installed app and offline). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's headless shell of the same Chromium build (package chromium-headless-shell), the engine
 * Playwright's own headless mode runs: the same Blink and V8 without the full browser's UI, about a quarter
 * less CPU per page, which is most of the suite's time. The full browser where the shell is not installed.
 */
export const HEADLESS_SHELL_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : CHROMIUM_PATH);

/** Debian's Chromium (its headless shell), with the flags this sandbox needs (no network beyond loopback). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: HEADLESS_SHELL_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export const PHONE = { width: 375, height: 740 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
/** The phone the buyer journey was walked on (issue 17): a common modern phone's CSS viewport. */
export const PHONE_390 = { width: 390, height: 844 } as const;

/**
 * A fresh browser context (own cookies and storage) on the test server. Content-Security-Policy
 * violations are collected so a test can assert the app runs under its own policy.
 */
export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = DESKTOP,
  options: { firstVisit?: boolean; geolocation?: { latitude: number; longitude: number } } = {},
) {
  const context = await browser.newContext({
    baseURL,
    viewport,
    locale: 'en-IN',
    timezoneId: 'America/New_York',
    ...(options.geolocation ? { geolocation: options.geolocation, permissions: ['geolocation'] } : {}),
  });
  // The home and Explore pages ask a first-time visitor for their city (first-visit-city-prompt.tsx).
  // Tests about something else start as a visitor who was already asked this visit and closed it.
  if (!options.firstVisit) {
    await context.addInitScript(() => sessionStorage.setItem('cityAsked', '1'));
  }
  const cspViolations: string[] = [];
  context.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
  });
  // Chromium does not log every violation to the console (zod's blocked `new Function` probe was silent
  // there); the page's own securitypolicyviolation events report them all.
  await context.exposeBinding('__reportCspViolation', (_source, report: string) => {
    cspViolations.push(report);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (r: string) => void })
        .__reportCspViolation;
      report(
        `${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  return { context, cspViolations };
}

/**
 * Fails with the list of serious or critical accessibility violations axe-core finds on the page, by any
 * rule axe-core runs by default.
 */
export function expectNoSeriousA11yViolations(page: Page) {
  return expectNoA11yViolations(page, ['serious', 'critical']);
}

/**
 * Every impact axe-core reports. The buyer's pages are held to all of them in the accessibility sweeps
 * (issue 39), not only serious and critical: heading-order and landmark-unique (moderate) were what an
 * outside audit found on Explore and /search.
 */
export const EVERY_IMPACT = ['minor', 'moderate', 'serious', 'critical'] as const;

/** Fails with the list of violations of the given impacts axe-core finds on the page. */
export async function expectNoA11yViolations(page: Page, impacts: readonly string[]) {
  // The project's own axe-core, not the older copy @axe-core/playwright bundles: that one (4.13) still
  // counted label-content-name-mismatch as experimental and skipped it, so the footer's store badges
  // failed an outside audit while this check passed (issue 39).
  // Every rule, run in the page itself: the app has no frames, so the default's extra blank page per run
  // (to merge frame results) buys nothing and cost about a second; only violations are collected.
  const results = await new AxeBuilder({ page, axeSource: axe.source })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  const found = results.violations.filter((v) => impacts.includes(v.impact ?? ''));
  if (found.length > 0) {
    const lines = found.map(
      (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    throw new Error(`Accessibility violations on ${page.url()}:\n${lines.join('\n')}`);
  }
}

/**
 * Whether the element is wholly on screen and not under a fixed bottom bar (`data-testid` given), as the
 * person would see it without scrolling.
 */
export function isOnScreen(locator: Locator, bottomBarTestId?: string): Promise<boolean> {
  return locator.evaluate((el, barId) => {
    const box = el.getBoundingClientRect();
    const bar = barId
      ? document.querySelector(`[data-testid="${barId}"]`)?.getBoundingClientRect()
      : undefined;
    const floor = bar && bar.height > 0 ? bar.top : window.innerHeight;
    return box.height > 0 && box.top >= 0 && box.bottom <= floor;
  }, bottomBarTestId);
}

/**
 * Saves a screenshot for a person to look at (the guide asks for every page at phone and desktop size)
 * when SCREENSHOT_DIR names a folder; otherwise takes none, as no test compares them.
 */
export async function saveScreenshot(
  target: Page | Locator,
  fileName: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const folder = process.env.SCREENSHOT_DIR;
  if (!folder) return;
  await target.screenshot({ path: path.join(folder, fileName), ...options });
}

export type { Browser, BrowserContext, Locator, Page, Route };
