import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLongDate, indiaCalendarDay } from '../../shared/dates.ts';
import { IMAGE_MESSAGES } from '../../shared/event-images.ts';
import {
  type Browser,
  expectNoSeriousA11yViolations,
  launchBrowser,
  newContext,
  type Page,
} from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { makeImage } from '../helpers/images.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'editor-pass-123';

/** An India calendar day some days from now, and how the editor labels it. */
function dayFromNow(days: number) {
  const day = indiaCalendarDay(new Date(Date.now() + days * 86_400_000));
  return { day, label: formatLongDate(new Date(`${day}T00:00:00+05:30`)) };
}

async function signUp(page: Page, name: string, email: string) {
  await page.goto('/SignUp');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

describe('event editor in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('an organiser creates an event with two dates and two ticket types, publishes it, and a buyer sees it in its city', async () => {
    const baseURL = e2eServer().baseURL;
    const organiser = await newContext(browser, baseURL);
    const page = await organiser.context.newPage();
    const email = `editor-${Date.now().toString(36)}@example.com`;
    await signUp(page, 'Esha Editor', email);
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/user-role.ts', email, 'organiser'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: e2eServer().dataDir, LOG_LEVEL: 'silent' },
    });
    const name = `Nagpur Sufi Nights ${Date.now().toString(36)}`;

    await page.goto('/organiser');
    await page.getByRole('link', { name: 'Create event' }).click();
    await page.waitForURL((url) => url.pathname === '/organiser/events/new');
    // The shared schema's messages, inline.
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByText('Event name is required').waitFor();
    await page.getByText('Please choose a city from the list').waitFor();
    await page.getByLabel('Event name').fill(name);
    await page.getByLabel('Category').selectOption('concerts');
    await page.getByLabel('City').selectOption('Nagpur');
    await page.getByLabel('Venue').fill('Suresh Bhat Auditorium, Reshimbagh');
    await page.getByLabel('Description').fill('Qawwali and Sufi poetry under the stars.');
    await page.getByLabel('Language').fill('Urdu');
    await page.getByLabel('Artists (one per line)').fill('Nizami Bandhu');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL((url) => /^\/organiser\/events\/[^/]+\/edit$/.test(url.pathname));
    await page.getByText('Status: Draft').waitFor();

    // Publishing an empty draft says what is missing.
    await page.getByRole('button', { name: 'Publish event' }).click();
    await page.getByText('Add a date with a slot that has not started yet.').waitFor();

    // A change typed into the details and not yet saved survives the other forms' saves (each bumps the
    // event's version; the details form must not be remounted for that).
    await page.getByLabel('Language').fill('Urdu, Hindi');
    const dates = [dayFromNow(10), dayFromNow(11)];
    for (const { day, label } of dates) {
      await page.getByLabel('New date').fill(day);
      await page.getByRole('button', { name: 'Add date' }).click();
      await page.getByRole('heading', { name: label }).waitFor();
      const slotForm = page.getByRole('form', { name: `Add slot on ${label}` });
      await slotForm.getByRole('button', { name: 'Add slot' }).click();
      await page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: label }) })
        .getByRole('heading', { name: /^Slot 7:00 PM/ })
        .waitFor();
    }

    expect(await page.getByLabel('Language').inputValue()).toBe('Urdu, Hindi');

    const firstSlot = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: /^Slot 7:00 PM/ }) })
      .first();
    await firstSlot.getByText('Add ticket type', { exact: true }).first().click();
    for (const [ticket, price, capacity] of [
      ['Gold', '1499', '100'],
      ['Silver', '499', '200'],
    ] as const) {
      await firstSlot.getByLabel('Ticket name').last().fill(ticket);
      await firstSlot.getByLabel('Price (₹)').last().fill(price);
      await firstSlot.getByLabel('Capacity').last().fill(capacity);
      await firstSlot.getByRole('button', { name: 'Add ticket type' }).click();
      await firstSlot.getByText(`${ticket} · `).first().waitFor();
    }
    await firstSlot.getByRole('button', { name: 'Copy ticket types to all slots' }).click();
    // It asks first, naming what the copy adds (issue 35).
    await page.getByRole('dialog').getByRole('button', { name: 'Copy and add 300 seats' }).click();
    await expect.poll(() => page.getByText('0 sold, 0 held of 100').count()).toBe(2);
    await expect.poll(() => page.getByText('0 sold, 0 held of 200').count()).toBe(2);
    // A late show runs past midnight: an end before the start is on the next day, as the form says.
    const lateForm = page.getByRole('form', { name: `Add slot on ${dates[1]!.label}` });
    await lateForm.getByLabel('Slot start (India time)').fill('22:00');
    await lateForm.getByLabel('Slot end (India time)').fill('01:30');
    await lateForm.getByText('Ends the next day').waitFor();
    await lateForm.getByRole('button', { name: 'Add slot' }).click();
    await page.getByRole('heading', { name: 'Slot 10:00 PM – 1:30 AM' }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // The poster: a text file named like a photo is refused by its content, a real JPEG is taken.
    await page.getByRole('button', { name: 'Publish event' }).click();
    await page.getByText('Add a poster image.').waitFor();
    const poster = page.getByLabel('Poster image');
    await poster.setInputFiles({
      name: 'poster.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('not a photo at all\n'.repeat(20)),
    });
    await page.getByText(IMAGE_MESSAGES.notAnImage).waitFor();
    await poster.setInputFiles({
      name: 'poster.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from(await makeImage('jpeg', 1200, 1600)),
    });
    const preview = page.getByRole('img', { name: 'Poster image preview' });
    // Encoding takes a moment on a busy machine.
    await expect
      .poll(() => preview.getAttribute('src'), { timeout: 20_000 })
      .toMatch(/^\/uploads\/[0-9a-f]{32}\.600x800\.webp$/);
    const posterUrl = (await preview.getAttribute('src'))!;
    expect(await page.getByText(IMAGE_MESSAGES.notAnImage).count()).toBe(0);
    const saved = page.waitForResponse((r) => r.url().includes('/trpc/organiser.updateDetails'));
    await page.getByRole('button', { name: 'Save details' }).click();
    expect((await saved).status()).toBe(200);
    // The editor reloads the event and says so; the form stays (a remount lost the 'Saved.' line and any
    // upload started after the save): the poster is now the saved one.
    await page.getByText('Saved.').waitFor();
    await page.getByText('Status: Draft').waitFor();
    await expect.poll(() => preview.getAttribute('src'), { timeout: 10_000 }).toBe(posterUrl);
    // A banner too small for the event page is refused beside its field, naming the minimum.
    await page.getByLabel('Banner image').setInputFiles({
      name: 'banner.png',
      mimeType: 'image/png',
      buffer: Buffer.from(await makeImage('png', 300, 200)),
    });
    await page.getByText(IMAGE_MESSAGES.tooSmall('banner')).waitFor({ timeout: 30_000 });
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Publish event' }).click();
    await page.getByText('Status: Published').waitFor();
    expect(organiser.cspViolations).toEqual([]);

    // A buyer who chose Nagpur finds it on the home page.
    const buyer = await newContext(browser, baseURL);
    await buyer.context.addInitScript(() => localStorage.setItem('selectedCity', 'Nagpur'));
    const home = await buyer.context.newPage();
    await home.goto('/');
    const near = home.locator('section', { has: home.getByRole('heading', { name: 'Happening near me' }) });
    await near.getByRole('link', { name: new RegExp(name) }).click();
    await home.getByRole('heading', { level: 1, name }).waitFor();
    await home.getByText('₹499 Onwards').locator('visible=true').first().waitFor();
    // With no banner, the event page shows the uploaded poster, loaded (not blocked, not broken).
    const shown = home.locator(`article img[src="${posterUrl}"]`).first();
    await shown.waitFor();
    await expect
      .poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: 10_000,
      })
      .toBe(600);
    expect(buyer.cspViolations).toEqual([]);
    await organiser.context.close();
    await buyer.context.close();
  });
});
