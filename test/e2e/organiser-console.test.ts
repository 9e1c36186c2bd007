import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src-server/db/schema/accounts.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { insertBookingWithEvent } from '../helpers/bookings.ts';
import {
  expectNoSeriousA11yViolations,
  newContext,
  type Page,
  PHONE,
  PHONE_390,
  saveScreenshot,
} from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'console-pass-123';

function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

async function fillSignUp(page: Page, name: string, email: string) {
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
}

function setRole(email: string, role: string) {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/user-role.ts', email, role], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: e2eServer().dataDir, LOG_LEVEL: 'silent' },
  });
}

describe('organiser console in Chromium', () => {
  const world = useE2eWorld();

  it('a new account asks to list events, an admin approves it with one click, and /organiser opens', async () => {
    const baseURL = e2eServer().baseURL;
    const requester = await newContext(world.browser, baseURL);
    const page = await requester.context.newPage();
    const requesterEmail = uniqueEmail('organiser');

    // 'Event' sends a signed-out visitor to sign in, and from there to sign up, and back.
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Event' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/organiser',
    );
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL((url) => url.pathname === '/SignUp');
    await fillSignUp(page, 'Meera Iyer', requesterEmail);
    // Not an organiser yet: the console's guard opens the request form.
    await page.waitForURL((url) => url.pathname === '/list-your-event');
    await page.getByRole('heading', { name: 'List your Event' }).waitFor();

    // Inline errors from the shared schema, beside each field.
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('Organisation name is required').waitFor();
    await page.getByText('Please enter a valid 10-digit mobile number').waitFor();
    await page.getByText('Please choose a city').waitFor();
    await page.getByText('Tell us what kind of events you run').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Organisation name').fill('Tala Collective');
    await page.getByLabel('Contact phone').fill('98765 43210');
    await page.getByLabel('City').selectOption('Pune');
    await page.getByLabel('What do you run?').fill('Jazz nights and open-mic evenings');
    await page.getByLabel('GSTIN (optional)').fill('27AAPFU0939F1ZW');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('Please enter a valid 15-character GSTIN (e.g. 27AAPFU0939F1ZV)').waitFor();
    await page.getByLabel('GSTIN (optional)').fill('27AAPFU0939F1ZV');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByRole('status').filter({ hasText: 'is waiting for an admin' }).waitFor();

    // The admin page is not for them.
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();

    // An admin: signs up, is made admin on the server with the script, approves on the admin page.
    const admin = await newContext(world.browser, baseURL, PHONE);
    const adminPage = await admin.context.newPage();
    const adminEmail = uniqueEmail('admin');
    await adminPage.goto('/SignUp');
    await fillSignUp(adminPage, 'Arjun Admin', adminEmail);
    await adminPage.waitForURL((url) => url.pathname === '/');
    setRole(adminEmail, 'admin');
    await adminPage.goto('/admin');
    const card = adminPage.getByRole('listitem').filter({ hasText: 'Tala Collective' });
    await card.getByText(requesterEmail).waitFor();
    await expectNoSeriousA11yViolations(adminPage);
    await card.getByRole('button', { name: 'Approve Tala Collective' }).click();
    await card.getByText('Approved', { exact: true }).waitFor();
    expect(await card.getByRole('button', { name: 'Decline Tala Collective' }).count()).toBe(0);

    // The requester's 'Event' now opens the console.
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Event' }).click();
    await page.waitForURL((url) => url.pathname === '/organiser');
    await page.getByRole('heading', { name: 'Organiser console' }).waitFor();
    await page.getByText('No events yet').waitFor();
    await expectNoSeriousA11yViolations(page);

    expect(requester.cspViolations).toEqual([]);
    expect(admin.cspViolations).toEqual([]);
    await requester.context.close();
    await admin.context.close();
  });

  it('the owner invites gate staff from the console, the invitee signs up from the link, accepts, lands on the scanner and sees no money; the owner removes them', async () => {
    const baseURL = e2eServer().baseURL;
    const owner = await newContext(world.browser, baseURL);
    const page = await owner.context.newPage();
    const ownerEmail = uniqueEmail('owner');
    await page.goto('/SignUp');
    await fillSignUp(page, 'Owen Owner', ownerEmail);
    await page.waitForURL((url) => url.pathname === '/');
    setRole(ownerEmail, 'organiser');
    const ownerId = world.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, ownerEmail))
      .get()!.id;
    const sale = insertBookingWithEvent(world.database.db, new Date(), {
      userId: ownerId,
      quantity: 2,
      event: { ownerId },
    });

    await page.goto('/organiser');
    const row = page.getByRole('row').filter({ hasText: sale.row.eventName });
    await row.getByText('2 / 25').waitFor();
    await row.getByText('On sale').waitFor();
    await row.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: `Team of ${sale.row.eventName}` }).waitFor();
    await expectNoSeriousA11yViolations(page);
    const staffEmail = uniqueEmail('gate');
    await page.getByLabel('Their e-mail').fill(staffEmail);
    await page.getByLabel('Role').selectOption('gate_staff');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${staffEmail}` })
      .waitFor();
    await page.getByText(`${staffEmail} · Gate staff`).waitFor();

    // The invitee opens the mailed link, creates an account from it, comes back and accepts.
    const mail = world.database.db.select().from(outbox).where(eq(outbox.to, staffEmail)).get()!;
    const link = /http:\/\/[^\s]+\/organiser\/invitations\/[a-z0-9]+/.exec(mail.text)![0];
    // The mail also says where the scanner is (issue 35).
    expect(mail.text).toContain(`${new URL(link).origin}/gate`);
    const invitee = await newContext(world.browser, baseURL, PHONE_390);
    const staffPage = await invitee.context.newPage();
    await staffPage.goto(new URL(link).pathname);
    await staffPage.getByRole('heading', { name: `Join ${sale.row.eventName}` }).waitFor();
    await expectNoSeriousA11yViolations(staffPage);
    await staffPage.getByRole('link', { name: 'Create an account' }).click();
    await fillSignUp(staffPage, 'Gita Gate', staffEmail);
    await staffPage.waitForURL((url) => url.pathname === new URL(link).pathname);
    await staffPage.getByRole('button', { name: 'Accept invitation' }).click();
    // Gate staff land on the scanner, with their event to pick, and no money anywhere (issue 35).
    await staffPage.waitForURL((url) => url.pathname === '/gate');
    await staffPage.getByRole('heading', { name: 'Gate', exact: true }).waitFor();
    await staffPage
      .getByLabel('Event', { exact: true })
      .locator('option', { hasText: sale.row.eventName })
      .waitFor({ state: 'attached' });
    await saveScreenshot(staffPage, 'invitee-gate-390.png');
    expect(await staffPage.getByRole('main').textContent()).not.toMatch(/₹|Gross|revenue|Payable/i);
    // The account menu leads to the scanner. (The gate itself is full screen, without the storefront's
    // header and its menu: docs/decisions/0048-client-layout.md.)
    await staffPage.goto('/');
    await staffPage.getByRole('button', { name: 'Open menu' }).click();
    await staffPage
      .getByRole('navigation', { name: 'Mobile' })
      .getByRole('link', { name: 'Gate scanner' })
      .waitFor();
    await saveScreenshot(staffPage, 'invitee-menu-390.png');
    await staffPage.goto('/organiser');
    const staffRow = staffPage.getByRole('row').filter({ hasText: sale.row.eventName });
    await staffRow.getByText('Gate staff').waitFor();
    await staffRow.getByRole('link', { name: 'Gate scanner' }).waitFor();
    // Not an organiser themselves: the console offers the request form.
    await staffPage.getByRole('main').getByRole('link', { name: 'List your Event' }).waitFor();
    await saveScreenshot(staffPage, 'invitee-console-390.png');
    expect(await staffPage.getByRole('main').textContent()).not.toMatch(/₹|Gross|revenue|Payable/i);
    await expectNoSeriousA11yViolations(staffPage);

    // The owner removes them; their console no longer lists the event.
    await page.reload();
    await page.getByRole('button', { name: 'Remove Gita Gate' }).click();
    await page.getByText('Nobody yet besides the owner.').waitFor();
    await staffPage.goto('/organiser');
    await staffPage.waitForURL((url) => url.pathname === '/list-your-event');

    expect(owner.cspViolations).toEqual([]);
    expect(invitee.cspViolations).toEqual([]);
    await owner.context.close();
    await invitee.context.close();
  });
});
