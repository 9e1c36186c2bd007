import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src-server/db/schema/accounts.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { insertBookingWithEvent } from '../helpers/bookings.ts';
import {
  expectNoSeriousA11yViolations,
  newContext,
  type Page,
  PHONE_390,
  saveScreenshot,
} from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function signUp(page: Page, name: string): Promise<string> {
  const email = `sales-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  await page.goto('/SignUp');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('sales-pass-123');
  await page.getByLabel('Confirm Password', { exact: true }).fill('sales-pass-123');
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  return email;
}

/** `npm run user:role` on the server's world.database, as an installation's admin would. */
function makeOrganiser(email: string) {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/user-role.ts', email, 'organiser'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: e2eServer().dataDir, LOG_LEVEL: 'silent' },
  });
}

/** Screenshots of the console's sales pages land here, to be looked at (phone and desktop). */

describe('sales dashboard and orders in Chromium', () => {
  const world = useE2eWorld();

  it('the owner sees the figures and the chart, finds a buyer by e-mail and downloads the CSV with the booking', async () => {
    const baseURL = e2eServer().baseURL;
    const owner = await newContext(world.browser, baseURL);
    const page = await owner.context.newPage();
    const ownerEmail = await signUp(page, 'Sana Sales');
    makeOrganiser(ownerEmail);
    const ownerId = world.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, ownerEmail))
      .get()!.id;
    // Two Gold Circle tickets (₹999.99): ₹1,999.98 + fee ₹100 + GST ₹18 = ₹2,117.98.
    const buyerEmail = `rhea-${Date.now().toString(36)}@example.com`;
    const sale = insertBookingWithEvent(world.database.db, new Date(), {
      userId: ownerId,
      userName: 'Rhea Kapoor',
      userEmail: buyerEmail,
      quantity: 2,
      personAllowedPerTicket: 1,
      event: { ownerId },
    });
    // A second order of the same event, by someone else, that the search must leave out.
    world.database.db
      .insert(bookings)
      .values({
        ...sale.row,
        id: `${sale.row.id}X`,
        paymentId: `${sale.row.paymentId}X`,
        userName: 'Kabir Mehta',
        userEmail: 'kabir@example.com',
      })
      .run();

    await page.goto('/organiser');
    const row = page.getByRole('row').filter({ hasText: sale.row.eventName });
    await row.getByText('4 / 25').waitFor();
    await row.getByRole('link', { name: 'Sales' }).click();
    await page.getByRole('heading', { name: `Sales of ${sale.row.eventName}` }).waitFor();
    const figure = async (label: string) =>
      (
        await page
          .getByRole('region', { name: 'Money and check-ins' })
          .locator('dl > div')
          .filter({ has: page.getByText(label, { exact: true }) })
          .locator('dd')
          .allTextContents()
      ).join('\n');
    // Bookings written directly have no invoice, so no GST is shown in the ticket revenue.
    await page.getByText('2 orders, GST in it ₹0.00').waitFor();
    expect(await figure('Ticket revenue')).toBe('₹3,999.96\n2 orders, GST in it ₹0.00');
    expect(await figure('Platform fees')).toBe(
      "₹236.00\nConvenience fees and their GST: the platform's, not yours",
    );
    expect(await figure('Refunds')).toBe('₹0.00\n0 cancelled, ₹0.00 of it from your revenue');
    expect(await figure('At the box office')).toBe(
      '₹0.00\ncollected at the door: 0 sales (cash ₹0.00, UPI ₹0.00), 0 complimentary',
    );
    expect(await figure('Payable to organiser')).toBe(
      '₹3,999.96\nTicket revenue − refunds from your revenue − collected at the door',
    );
    expect(await figure('Checked in')).toBe('0 / 4\npeople, from 0 of 2 bookings');
    const ticketTypes = page.getByRole('region', { name: 'Ticket types' });
    await ticketTypes
      .getByRole('row')
      .filter({ hasText: 'Gold Circle' })
      .getByText('25', { exact: true })
      .waitFor();
    // The chart is a canvas drawn by uPlot, with its figures as text beside it.
    await page.locator('[data-testid="sales-chart"] canvas').first().waitFor();
    await page.getByText(/4 tickets \(₹4,235\.96\) over 1 day with sales/).waitFor();
    // The chart's figures as a table, in the console's own ScrollTable (issue 39).
    await page.getByText('Sales per day as a table').click();
    const perDay = page.getByRole('region', { name: 'Sales per day' });
    expect(await perDay.getByRole('columnheader').allTextContents()).toEqual([
      'Day',
      'Orders',
      'Tickets',
      'Gross',
    ]);
    expect(await perDay.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([
      '2',
      '4',
      '₹4,235.96',
    ]);
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, `sales-dashboard-desktop.png`, { fullPage: true });

    await page.getByRole('navigation', { name: 'This event' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: `Orders of ${sale.row.eventName}` }).waitFor();
    await page.getByRole('heading', { name: 'Orders 1–2 of 2' }).waitFor();
    await page.getByLabel('Search orders').fill(buyerEmail.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: 'Orders 1–1 of 1' }).waitFor();
    const orders = page.getByRole('region', { name: 'Orders' });
    await orders.getByRole('link', { name: sale.bookingId }).waitFor();
    expect(await orders.getByText('Kabir Mehta').count()).toBe(0);
    expect(await orders.getByRole('link', { name: sale.bookingId }).getAttribute('href')).toBe(
      `/organiser/events/${sale.eventId}/bookings/${sale.bookingId}`,
    );
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, `sales-orders-desktop.png`, { fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^jalsa-orders-arijit-singh-live-\d+-\d{4}-\d\d-\d\d\.csv$/);
    const file = readFileSync((await download.path())!);
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = file.toString('utf8');
    expect(text).toContain(`${sale.bookingId},`);
    expect(text).toContain(buyerEmail);
    expect(text).toContain(',2117.98,');
    expect(text).not.toContain('kabir@example.com');

    // The same pages on a phone: tables scroll sideways inside their own region.
    const phone = await newContext(world.browser, baseURL, PHONE_390);
    await phone.context.addCookies(await owner.context.cookies());
    const phonePage = await phone.context.newPage();
    await phonePage.goto(`/organiser/events/${sale.eventId}/sales`);
    await phonePage.locator('[data-testid="sales-chart"] canvas').first().waitFor();
    await phonePage.getByText('Sales per day as a table').click();
    await phonePage.getByRole('region', { name: 'Sales per day' }).getByRole('row').nth(1).waitFor();
    expect(
      await phonePage.evaluate(() => document.documentElement.scrollWidth),
      'the per-day table scrolls inside its region, not the page',
    ).toBeLessThanOrEqual(PHONE_390.width);
    await expectNoSeriousA11yViolations(phonePage);
    await saveScreenshot(phonePage, `sales-dashboard-phone.png`, { fullPage: true });
    // Per hour: the same sales, grouped by India-time hour.
    await phonePage.getByRole('button', { name: 'Per hour' }).click();
    await phonePage.getByText(/4 tickets \(₹4,235\.96\) over 1 hour with sales/).waitFor();
    await phonePage.goto(`/organiser/events/${sale.eventId}/orders`);
    await phonePage.getByRole('heading', { name: 'Orders 1–2 of 2' }).waitFor();
    const pageWidth = await phonePage.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth, 'the page itself does not scroll sideways').toBeLessThanOrEqual(PHONE_390.width);
    await expectNoSeriousA11yViolations(phonePage);
    await saveScreenshot(phonePage, `sales-orders-phone.png`, { fullPage: true });

    expect(owner.cspViolations).toEqual([]);
    expect(phone.cspViolations).toEqual([]);
    await phone.context.close();
    await owner.context.close();
  });
});
