import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { users } from '../../src-server/db/schema/accounts.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { insertBookingWithEvent } from '../helpers/bookings.ts';
import { type BrowserContext, newContext, type Page } from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';

/**
 * The app works under its own Content-Security-Policy: every main page, signed out and signed in, and
 * a whole purchase through the simulator's checkout dialog, with zero violations. newContext collects
 * them from Chromium's console and from the page's own `securitypolicyviolation` events.
 */

describe('the Content-Security-Policy in Chromium', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;

  async function contextWithCollector(signedIn: boolean) {
    const { context, cspViolations } = await newContext(world.browser, baseURL);
    let userId: string | null = null;
    if (signedIn) userId = await signIn(context);
    return { context, cspViolations, userId };
  }

  async function signIn(context: BrowserContext): Promise<string> {
    const now = new Date();
    const userId = randomUUID();
    world.database.db
      .insert(users)
      .values({
        id: userId,
        email: `csp-${userId.slice(0, 8)}@example.com`,
        name: 'Kavya Nair',
        isEmailVerified: true,
        phone: '9876543210',
        state: 'Kerala',
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .run();
    const { token } = createSession(world.database.db, userId, now);
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL }]);
    return userId;
  }

  /** Opens the page, lets it settle, and returns the violations reported while it loaded. */
  async function visit(page: Page, pathname: string, violations: string[]): Promise<string[]> {
    const before = violations.length;
    const response = await page.goto(pathname);
    expect(response?.status(), pathname).toBe(200);
    expect(response?.headers()['content-security-policy'], `${pathname} is served with the policy`).toContain(
      "default-src 'self'",
    );
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { name: 'Page not found' }).count(), pathname).resolves.toBe(0);
    await expect(page.locator('#root *').count(), `${pathname} rendered`).resolves.toBeGreaterThan(0);
    return violations.slice(before);
  }

  it('every main page, signed out, renders with zero violations', async () => {
    const ev = createTicketedEvent(world.database.db, { now: new Date() });
    const { context, cspViolations } = await contextWithCollector(false);
    const page = await context.newPage();
    const seen: Record<string, string[]> = {};
    for (const pathname of [
      '/',
      `/events/${ev.eventId}`,
      `/event/${ev.eventId}`,
      `/select-tickets/${ev.eventId}`,
      '/login',
      '/SignUp',
      '/forgot-password',
      '/privacy-policy',
      '/Terms%20&%20Conditions',
      '/Contact_Us',
      '/search?q=music',
      '/explore',
      '/temp-checkout',
      '/checkout-tickets',
    ]) {
      seen[pathname] = await visit(page, pathname, cspViolations);
    }
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((p) => [p, []])));
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('signed-in pages (My Bookings with QR codes, a ticket, profile) render with zero violations', async () => {
    const { context, cspViolations, userId } = await contextWithCollector(true);
    const { bookingId } = insertBookingWithEvent(world.database.db, new Date(), { userId: userId! });
    const page = await context.newPage();
    const seen: Record<string, string[]> = {};
    for (const pathname of ['/my-bookings', `/ticket/${bookingId}`, '/profile', '/protected']) {
      seen[pathname] = await visit(page, pathname, cspViolations);
    }
    await page.goto('/my-bookings');
    await page.getByText(`Booking ID: ${bookingId}`).waitFor();
    await page.getByRole('img', { name: `QR code for booking ${bookingId}` }).waitFor();
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((p) => [p, []])));
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('a whole purchase (select, checkout, the simulator dialog, success) runs with zero violations', async () => {
    const ev = createTicketedEvent(world.database.db, { now: new Date() });
    const { context, cspViolations } = await contextWithCollector(true);
    const page = await context.newPage();
    await page.goto(`/select-tickets/${ev.eventId}`);
    await page.getByRole('heading', { name: ev.eventName }).waitFor();
    await page.getByRole('button', { name: 'Select Ticket: Gold Circle' }).click();
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.waitForURL(/\/checkout-tickets/);
    await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
    await page.getByLabel('State').selectOption('Kerala');
    await page.getByRole('button', { name: 'Proceed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: /^Pay ₹/ }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    expect(cspViolations).toEqual([]);
    await page.waitForURL(/\/ticket\/JB[2-9A-Z]{10}$/, { timeout: 10_000 });
    await page.waitForLoadState('networkidle');
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('the policy really is enforced: an injected inline script is blocked and reported', async () => {
    const { context, cspViolations } = await contextWithCollector(false);
    const page = await context.newPage();
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    // The event report names the directive, so this also proves the shared collector sees events.
    await expect.poll(() => cspViolations.some((v) => v.startsWith('script-src'))).toBe(true);
    await context.close();
  });
});
