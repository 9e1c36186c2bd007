import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountRole } from '../../shared/organiser-schemas.ts';
import { type DatabaseHandle, openDatabase } from '../../src-server/db/client.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import {
  type Browser,
  type BrowserContext,
  DESKTOP,
  expectNoSeriousA11yViolations,
  launchBrowser,
  newContext,
  PHONE_390,
  saveScreenshot,
} from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';

/** Where the screenshots go, to be looked at (not compared). */

describe('admin page, event preview and unsaved-changes warning in Chromium', () => {
  let browser: Browser;
  let database: DatabaseHandle;
  const baseURL = e2eServer().baseURL;
  beforeAll(async () => {
    browser = await launchBrowser();
    database = openDatabase(path.join(e2eServer().dataDir, 'jalsa.db'));
  });
  afterAll(async () => {
    database?.close();
    await browser?.close();
  });

  function account(name: string, role: AccountRole) {
    const now = new Date();
    const id = randomUUID();
    const email = `${name.split(' ')[0]!.toLowerCase()}-${id.slice(0, 8)}@example.com`;
    database.db
      .insert(users)
      .values({
        id,
        email,
        name,
        phone: '9876543210',
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .run();
    writeAccountRole(database.db, id, role, null, now);
    return { id, email, token: createSession(database.db, id, now).token };
  }

  async function signIn(context: BrowserContext, token: string) {
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL }]);
  }

  it('an admin unpublishes another organiser’s event and it disappears from the storefront', async () => {
    const owner = account('Farah Organiser', 'organiser');
    const admin = account('Arjun Admin', 'admin');
    const ev = createTicketedEvent(database.db, { now: new Date(), name: `Qawwali Night ${Date.now()}` });
    // Made just now, so it heads the admin's list (newest first).
    database.db
      .update(events)
      .set({ ownerId: owner.id, createdAt: new Date().toISOString() })
      .where(eq(events.id, ev.eventId))
      .run();

    // A buyer sees the event.
    const buyer = await newContext(browser, baseURL);
    const buyerPage = await buyer.context.newPage();
    await buyerPage.goto(`/events/${ev.eventId}`);
    await buyerPage.getByRole('heading', { name: ev.eventName }).waitFor();

    const { context, cspViolations } = await newContext(browser, baseURL, PHONE_390);
    await signIn(context, admin.token);
    const page = await context.newPage();
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Platform totals' }).waitFor();
    const organisers = page.getByRole('region', { name: 'Organisers', exact: true });
    await organisers.getByText(owner.email).waitFor();
    const allEvents = page.getByRole('region', { name: 'All events' });
    const row = allEvents.getByRole('row').filter({ hasText: ev.eventName });
    await row.getByText('On sale').waitFor();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, 'admin-phone.png', { fullPage: true });

    await row.getByRole('button', { name: `Unpublish ${ev.eventName}` }).click();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, unpublish' }).click();
    await row.getByText('Draft').waitFor();
    expect(await row.getByRole('button', { name: `Unpublish ${ev.eventName}` }).count()).toBe(0);

    // Gone from the storefront: its page says not found, and the owner was told.
    await buyerPage.reload();
    await buyerPage
      .getByText(/not found/i)
      .first()
      .waitFor();
    expect(await buyerPage.getByRole('heading', { name: ev.eventName }).count()).toBe(0);
    const mail = database.db.select().from(outbox).where(eq(outbox.to, owner.email)).get();
    expect(mail?.subject).toBe(`${ev.eventName} was taken off sale`);

    // The convenience-fee cap: a value over 20 % is refused beside the field; saving the highest cap
    // lowers nothing (the e2e server's other events keep their fees).
    const feeCap = page.getByRole('region', { name: 'Convenience fee cap' });
    const capField = feeCap.getByLabel('Highest convenience fee (%)');
    await capField.fill('25');
    await feeCap.getByRole('button', { name: 'Save cap' }).click();
    await feeCap.getByText('Enter a percentage from 0 to 20').waitFor();
    await capField.fill('20');
    await feeCap.getByRole('button', { name: 'Save cap' }).click();
    await feeCap.getByText('Convenience fees are now capped at 20 %. No event charged more.').waitFor();

    // Desktop, for the screenshot and axe at that size too.
    await page.setViewportSize(DESKTOP);
    await page.reload();
    await page.getByRole('heading', { name: 'Platform totals' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, 'admin-desktop.png', { fullPage: true });
    expect(cspViolations).toEqual([]);
    await context.close();
    await buyer.context.close();
  });

  it('the team previews a draft as the buyer page, with booking off; buyers still cannot open it', async () => {
    const owner = account('Farah Organiser', 'organiser');
    const ev = createTicketedEvent(database.db, {
      now: new Date(),
      name: `Draft Ghazal Evening ${Date.now()}`,
    });
    database.db
      .update(events)
      .set({ ownerId: owner.id, status: 'draft' })
      .where(eq(events.id, ev.eventId))
      .run();

    for (const [viewport, name] of [
      [PHONE_390, 'preview-phone.png'],
      [DESKTOP, 'preview-desktop.png'],
    ] as const) {
      const { context, cspViolations } = await newContext(browser, baseURL, viewport);
      await signIn(context, owner.token);
      const page = await context.newPage();
      await page.goto(`/organiser/events/${ev.eventId}/edit`);
      await page.getByRole('link', { name: 'Preview the event page' }).click();
      await page.waitForURL((url) => url.pathname === `/organiser/events/${ev.eventId}/preview`);
      await page.getByRole('note').getByText('Preview — not visible to buyers.').waitFor();
      await page.getByRole('heading', { name: ev.eventName, level: 1 }).waitFor();
      // Booking is off: every Book Now is a disabled button, no link to ticket selection.
      const bookNow = page.getByRole('button', { name: 'Book Now' });
      expect(await bookNow.count()).toBeGreaterThan(0);
      for (const button of await bookNow.all()) expect(await button.isDisabled()).toBe(true);
      expect(await page.locator(`a[href*="/select-tickets/"]`).count()).toBe(0);
      await expectNoSeriousA11yViolations(page);
      await saveScreenshot(page, name, { fullPage: true });
      expect(cspViolations).toEqual([]);
      await context.close();
    }

    // A buyer (signed in, no role on the event) gets neither the storefront page nor the preview.
    const buyer = account('Bina Buyer', 'none');
    const { context } = await newContext(browser, baseURL);
    await signIn(context, buyer.token);
    const page = await context.newPage();
    await page.goto(`/events/${ev.eventId}`);
    await page.getByRole('heading', { name: "We couldn't find this event" }).waitFor();
    await page.goto(`/organiser/events/${ev.eventId}/preview`);
    await page.getByText('Event not found').waitFor();
    expect(await page.getByRole('heading', { name: ev.eventName }).count()).toBe(0);
    await context.close();
  });

  it('the event editor asks before in-app navigation or closing the tab loses unsaved edits, and only then', async () => {
    const owner = account('Farah Organiser', 'organiser');
    const ev = createTicketedEvent(database.db, {
      now: new Date(),
      name: `Unsaved Sitar Recital ${Date.now()}`,
    });
    database.db
      .update(events)
      .set({ ownerId: owner.id, status: 'draft' })
      .where(eq(events.id, ev.eventId))
      .run();
    const { context } = await newContext(browser, baseURL);
    await signIn(context, owner.token);
    const page = await context.newPage();
    const editor = `/organiser/events/${ev.eventId}/edit`;
    await page.goto(editor);
    const name = page.getByLabel('Event name');
    await name.waitFor();

    // Clean: the link just goes.
    await page.getByRole('link', { name: 'Organiser console' }).click();
    await page.waitForURL((url) => url.pathname === '/organiser');
    await page.goto(editor);

    // Dirty: the link asks; staying keeps the edit, leaving goes without saving.
    await name.fill('Renamed but not saved');
    await page.getByRole('link', { name: 'Organiser console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Stay on this page' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(editor);
    await expect(name.inputValue()).resolves.toBe('Renamed but not saved');

    // Closing the tab gets the browser's own question (beforeunload).
    const asked = new Promise<string>((resolve) => {
      page.once('dialog', async (d) => {
        resolve(d.type());
        await d.dismiss();
      });
    });
    await page.close({ runBeforeUnload: true });
    await expect(asked).resolves.toBe('beforeunload');

    // Saved: clean again, so navigation does not ask.
    const second = await context.newPage();
    await second.goto(editor);
    await second.getByLabel('Event name').fill('Renamed and saved');
    await second.getByRole('link', { name: 'Organiser console' }).click();
    await second
      .getByRole('dialog', { name: 'Leave without saving?' })
      .getByRole('button', { name: 'Leave without saving' })
      .click();
    await second.waitForURL((url) => url.pathname === '/organiser');
    await second.goto(editor);
    await second.getByLabel('Event name').fill('Renamed and saved');
    await second.getByRole('button', { name: 'Save details' }).click();
    await second.getByRole('heading', { name: 'Renamed and saved', level: 1 }).waitFor();
    await second.getByRole('link', { name: 'Organiser console' }).click();
    await second.waitForURL((url) => url.pathname === '/organiser');

    // The smaller forms too: a date typed but not added asks; once added, the page leaves freely.
    await second.goto(editor);
    const day = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    await second.getByLabel('New date').fill(day);
    await second.getByRole('link', { name: 'Organiser console' }).click();
    const askAgain = second.getByRole('dialog', { name: 'Leave without saving?' });
    await askAgain.getByRole('button', { name: 'Stay on this page' }).click();
    await askAgain.waitFor({ state: 'detached' });
    await second.getByRole('button', { name: 'Add date' }).click();
    await expect.poll(() => second.getByLabel('New date').inputValue()).toBe('');
    await second.getByRole('link', { name: 'Organiser console' }).click();
    await second.waitForURL((url) => url.pathname === '/organiser');
    await context.close();
  });
});
