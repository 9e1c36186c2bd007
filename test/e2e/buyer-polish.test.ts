import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src-server/db/client.ts';
import { passwordResetTokens, users } from '../../src-server/db/schema/accounts.ts';
import { newLinkToken } from '../../src-server/services/accounts/tokens.ts';
import { insertBookingWithEvent } from '../helpers/bookings.ts';
import {
  type Browser,
  DESKTOP,
  expectNoSeriousA11yViolations,
  type Locator,
  launchBrowser,
  newContext,
  PHONE_390,
  saveScreenshot,
} from '../helpers/browser.ts';
import { signInNewBuyer } from '../helpers/buyer.ts';
import { e2eServer } from '../helpers/e2e-server.ts';

// Issue 17 'Polish': the small things a first-time buyer trips over.
const EVENT = '/events/retro-bollywood-mumbai';

describe('buyer polish', () => {
  let browser: Browser;
  let database: DatabaseHandle;
  const baseURL = e2eServer().baseURL;

  beforeAll(async () => {
    browser = await launchBrowser();
    database = openDatabase(path.join(e2eServer().dataDir, 'jalsa.db'));
  });
  afterAll(async () => {
    await browser?.close();
    database?.close();
  });

  it('Copy Link confirms with a toast, not a blocking alert (desktop)', async () => {
    const { context } = await newContext(browser, baseURL, DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    const alerts: string[] = [];
    page.on('dialog', async (dialog) => {
      alerts.push(dialog.message());
      await dialog.dismiss();
    });
    await page.goto(EVENT);
    await page.getByRole('button', { name: 'Share' }).click();
    const share = page.getByRole('dialog', { name: 'Share this event' });
    await share.getByRole('button', { name: 'Copy Link' }).click();
    await share.getByRole('status').filter({ hasText: 'Link copied!' }).waitFor();
    expect(alerts).toEqual([]);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${baseURL}/event/retro-bollywood-mumbai`,
    );
    await saveScreenshot(page, 'polish-share-toast-desktop.png');
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  it("on a phone, Share opens the system share sheet (Web Share API) with the event's link", async () => {
    const context = await browser.newContext({
      baseURL,
      viewport: PHONE_390,
      hasTouch: true,
      isMobile: true,
    });
    await context.addInitScript(() => {
      const w = window as unknown as { shared: ShareData[] };
      w.shared = [];
      Object.defineProperty(navigator, 'share', {
        value: async (data: ShareData) => {
          w.shared.push(data);
        },
      });
    });
    const page = await context.newPage();
    await page.goto(EVENT);
    await page.getByRole('heading', { level: 1, name: 'Retro Bollywood Live' }).waitFor();
    await page.getByRole('button', { name: 'Share' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared))
      .toEqual([
        {
          title: 'Retro Bollywood Live',
          text: 'Hey! Check out this event "Retro Bollywood Live"',
          url: `${baseURL}/event/retro-bollywood-mumbai`,
        },
      ]);
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    await context.close();
  });

  it("the venue always has 'Open in Maps', also when the map cannot load (phone)", async () => {
    const { context } = await newContext(browser, baseURL, PHONE_390);
    const page = await context.newPage();
    await page.route('https://www.google.com/**', (route) => route.abort());
    await page.goto(EVENT);
    const open = page.getByRole('link', { name: /^Open in Maps/ });
    await open.scrollIntoViewIfNeeded();
    const venue = (await page.locator('dt:has-text("Venue") + dd').first().textContent())!.trim();
    expect(await open.getAttribute('href')).toBe(
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(venue)}`,
    );
    await expect(open.getAttribute('target')).resolves.toBe('_blank');
    await saveScreenshot(page, 'polish-venue-phone.png');
    await context.close();
  });

  it('My Bookings: Upcoming and Past, each by event date, with the amount paid (phone)', async () => {
    const { context } = await newContext(browser, baseURL, PHONE_390);
    const { userId } = await signInNewBuyer(database.db, context, baseURL);
    const now = new Date();
    const at = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();
    const booking = (name: string, days: number, totalAmountPaise: number) =>
      insertBookingWithEvent(database.db, now, {
        userId,
        ticketDate: at(days),
        ticketSlot: at(days),
        ticketSlotEnd: at(days + 0.1),
        totalAmountPaise,
        eventName: name,
      });
    booking('Later Show', 40, 50_000);
    booking('Last Year Show', -300, 99_900);
    booking('Soon Show', 3, 123_450);
    booking('Last Week Show', -7, 20_000);

    const page = await context.newPage();
    await page.goto('/my-bookings');
    const upcoming = page.getByRole('region', { name: /^Upcoming/ });
    const past = page.getByRole('region', { name: /^Past/ });
    await upcoming.getByRole('article').first().waitFor();
    const names = (region: typeof upcoming) =>
      region.getByRole('article').getByRole('heading').allTextContents();
    await expect(names(upcoming)).resolves.toEqual(['Soon Show', 'Later Show']);
    await expect(names(past)).resolves.toEqual(['Last Week Show', 'Last Year Show']);
    await upcoming.getByRole('article', { name: 'Soon Show' }).getByText('Amount paid: ₹1,234.50').waitFor();
    await past.getByRole('article', { name: 'Last Year Show' }).getByText('Amount paid: ₹999').waitFor();
    await saveScreenshot(page, 'polish-bookings-phone.png', { fullPage: true });
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  it('Esc cancels an edit of the profile, throwing the typed changes away (desktop)', async () => {
    const { context } = await newContext(browser, baseURL, DESKTOP);
    await signInNewBuyer(database.db, context, baseURL);
    const page = await context.newPage();
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const name = page.getByLabel('Name');
    await name.fill('Someone Else');
    await name.press('Escape');
    await expect(name.inputValue()).resolves.toBe('Meera Iyer');
    await expect(name.isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Save' }).count()).resolves.toBe(0);
    await expect(
      page.getByRole('button', { name: 'Edit Profile' }).evaluate((el) => el === document.activeElement),
    ).resolves.toBe(true);
    await context.close();
  });

  it("Profile keeps a mobile typed as '+91 98765 43210' and stores its 10 digits (phone)", async () => {
    const { context } = await newContext(browser, baseURL, PHONE_390);
    const { userId } = await signInNewBuyer(database.db, context, baseURL);
    const page = await context.newPage();
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const phone = page.getByLabel('Phone Number');
    await phone.fill('+91 98765 43210');
    // Nothing is cut off while typing: the box holds what was typed.
    await expect(phone.inputValue()).resolves.toBe('+91 98765 43210');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile saved' }).waitFor();
    expect(database.db.select().from(users).where(eq(users.id, userId)).get()?.phone).toBe('9876543210');
    await page.reload();
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    await expect(page.getByLabel('Phone Number').inputValue()).resolves.toBe('9876543210');
    await saveScreenshot(page, 'polish-profile-phone.png', { fullPage: true });
    await context.close();
  });

  it("event cards on a phone show the lowest price as '₹X onwards'", async () => {
    const { context } = await newContext(browser, baseURL, PHONE_390);
    await context.addInitScript(() => localStorage.setItem('selectedCity', 'Mumbai'));
    const page = await context.newPage();
    await page.goto('/');
    // Retro Bollywood Live: Silver ₹799, Gold ₹1,499, Platinum Lounge ₹4,999.
    const card = page.getByRole('link', { name: /Retro Bollywood Live/ }).first();
    await card.getByText('₹799 onwards', { exact: true }).waitFor();
    await card.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'polish-home-cards-phone.png');
    await context.close();
  });

  it("the footer says 'Events', 'Terms & Conditions' and this year's copyright (phone)", async () => {
    const { context } = await newContext(browser, baseURL, PHONE_390);
    const page = await context.newPage();
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(
      footer.getByRole('link', { name: 'Events', exact: true }).getAttribute('href'),
    ).resolves.toBe('/explore');
    await expect(
      footer.getByRole('link', { name: 'Terms & Conditions', exact: true }).getAttribute('href'),
    ).resolves.toBe(encodeURI('/Terms & Conditions'));
    await footer.getByText(`© ${new Date().getFullYear()} Jalsa. All rights reserved.`).waitFor();
    await footer.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'polish-footer-phone.png');
    await context.close();
  });

  it('focus returns to the button that opened the Share dialog or the city picker (phone)', async () => {
    // A phone browser without the Web Share API gets the page's own Share dialog.
    const { context } = await newContext(browser, baseURL, PHONE_390);
    const page = await context.newPage();
    // Radix gives focus back just after the dialog unmounts: wait for the element to be the focused one.
    const focused = (locator: Locator) => locator.and(page.locator(':focus')).waitFor();
    await page.goto(EVENT);
    const share = page.getByRole('button', { name: 'Share' });
    await share.click();
    const dialog = page.getByRole('dialog', { name: 'Share this event' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await focused(share);
    await share.click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await focused(share);

    const city = page.getByRole('button', { name: /^City:/ }).locator('visible=true');
    await city.click();
    const picker = page.getByRole('dialog', { name: 'Select Your City' });
    await picker.waitFor();
    await picker.getByRole('button', { name: 'Close' }).click();
    await picker.waitFor({ state: 'detached' });
    await focused(city);
    // Choosing a city closes the picker too, and focus comes back to the (renamed) button.
    await city.click();
    await picker.getByRole('button', { name: /Pune/ }).first().click();
    await picker.waitFor({ state: 'detached' });
    await focused(city);
    await expect(city.textContent()).resolves.toContain('PUN');
    await context.close();
  });

  it('a used or expired reset link says so as the page opens; a fresh one shows the form (phone)', async () => {
    const { context } = await newContext(browser, baseURL, PHONE_390);
    const page = await context.newPage();
    await page.goto('/reset-password?token=used-or-expired-link');
    await page.getByText('This reset link is invalid or has expired. Please request a new one.').waitFor();
    await page.getByRole('link', { name: 'Request a new reset link' }).waitFor();
    await expect(page.getByRole('textbox', { name: 'New Password', exact: true }).count()).resolves.toBe(0);
    await saveScreenshot(page, 'polish-reset-dead-phone.png');
    await expectNoSeriousA11yViolations(page);

    const other = await browser.newContext();
    const { userId } = await signInNewBuyer(database.db, other, baseURL);
    await other.close();
    const { token, id } = newLinkToken();
    const now = Date.now();
    database.db
      .insert(passwordResetTokens)
      .values({
        id,
        userId,
        expiresAt: new Date(now + 30 * 60_000).toISOString(),
        createdAt: new Date(now).toISOString(),
      })
      .run();
    await page.goto(`/reset-password?token=${encodeURIComponent(token)}`);
    await page.getByRole('textbox', { name: 'New Password', exact: true }).waitFor();
    await page.waitForTimeout(500);
    await expect(page.getByText('This reset link is invalid or has expired.').count()).resolves.toBe(0);
    await context.close();
  });

  it('Logout on a phone closes the menu and says it signed out', async () => {
    const { context } = await newContext(browser, baseURL, PHONE_390);
    await signInNewBuyer(database.db, context, baseURL);
    const page = await context.newPage();
    await page.goto('/my-bookings');
    await page.getByRole('heading', { name: 'My Bookings' }).waitFor();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await menu.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('status').filter({ hasText: 'Signed out' }).waitFor();
    await menu.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/');
    await saveScreenshot(page, 'polish-signed-out-phone.png');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Sign In' }).waitFor();
    await context.close();
  });
});
