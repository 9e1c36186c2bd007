import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src-server/db/client.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import {
  type BrowserContext,
  DESKTOP,
  expectNoSeriousA11yViolations,
  newContext,
  PHONE_390,
  saveScreenshot,
} from '../helpers/browser.ts';
import { signInNewBuyer } from '../helpers/buyer.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { buyThroughSimulator, useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';

/** An organiser account (installation role set on the server), signed in in `context`. */
async function signInNewOrganiser(db: DatabaseHandle['db'], context: BrowserContext, baseURL: string) {
  const now = new Date();
  const userId = randomUUID();
  db.insert(users)
    .values({
      id: userId,
      email: `e2e-organiser-${userId.slice(0, 8)}@example.com`,
      name: 'Kavya Rao',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .run();
  writeAccountRole(db, userId, 'organiser', null, now);
  const { token } = createSession(db, userId, now);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL }]);
  return userId;
}

describe('an organiser cancels a booking from its page, in Chromium', () => {
  const world = useE2eWorld();

  it('confirm dialog → cancelled with a full refund; the buyer sees it cancelled and the refund mail is in /dev/mail', async () => {
    const baseURL = e2eServer().baseURL;
    const organiser = await newContext(world.browser, baseURL, DESKTOP);
    const ownerId = await signInNewOrganiser(world.database.db, organiser.context, baseURL);
    const ev = createTicketedEvent(world.database.db, { name: `Raga Night ${randomUUID().slice(0, 6)}` });
    world.database.db.update(events).set({ ownerId }).where(eq(events.id, ev.eventId)).run();

    const buyer = await newContext(world.browser, baseURL, PHONE_390);
    const { email } = await signInNewBuyer(world.database.db, buyer.context, baseURL);
    const buyerPage = await buyer.context.newPage();
    await buyerPage.goto('/');
    const bookingId = await buyThroughSimulator(buyerPage, baseURL, ev, email);
    const bookingPath = `/organiser/events/${ev.eventId}/bookings/${bookingId}`;

    // Phone: the booking page and its cancel dialog (kept), and the slot's cancel dialog in the editor.
    const phone = await newContext(world.browser, baseURL, PHONE_390);
    await phone.context.addCookies(await organiser.context.cookies());
    const phonePage = await phone.context.newPage();
    await phonePage.goto(bookingPath);
    await phonePage.getByRole('heading', { name: `Booking ${bookingId}` }).waitFor();
    await phonePage.getByText('Meera Iyer').first().waitFor();
    await saveScreenshot(phonePage, `refunds-booking-phone.png`, { fullPage: true });
    await phonePage.getByRole('button', { name: 'Cancel booking' }).click();
    await phonePage.getByRole('dialog', { name: 'Cancel this booking?' }).waitFor();
    await saveScreenshot(phonePage, `refunds-cancel-booking-dialog-phone.png`);
    await phonePage.getByRole('button', { name: 'Keep it' }).click();
    await phonePage.goto(`/organiser/events/${ev.eventId}/edit`);
    await phonePage.getByRole('button', { name: /^Cancel slot / }).click();
    const slotDialog = phonePage.getByRole('dialog', { name: /Cancel the slot/ });
    await slotDialog.getByText('1 booking will be cancelled and refunded in full').waitFor();
    await saveScreenshot(phonePage, `refunds-cancel-slot-dialog-phone.png`);
    await slotDialog.getByRole('button', { name: 'Keep it' }).click();

    // Desktop: the event's cancel dialog names the booking too; then the booking is cancelled from its page.
    const page = await organiser.context.newPage();
    await page.goto(`/organiser/events/${ev.eventId}/edit`);
    await page.getByRole('button', { name: 'Cancel event' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel the whole event?' })
      .getByText('1 booking will be')
      .waitFor();
    await saveScreenshot(page, `refunds-cancel-event-dialog-desktop.png`);
    await page.getByRole('button', { name: 'Keep it' }).click();

    await page.goto(bookingPath);
    await page.getByRole('heading', { name: `Booking ${bookingId}` }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, `refunds-booking-desktop.png`, { fullPage: true });
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    await dialog.getByText('is refunded in full').waitFor();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, `refunds-cancel-booking-dialog-desktop.png`);
    await dialog.getByRole('button', { name: 'Cancel and refund' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Cancelled', { exact: true }).waitFor();
    await page.getByText('Refunded', { exact: true }).waitFor();
    await saveScreenshot(page, `refunds-booking-cancelled-desktop.png`, { fullPage: true });

    // The buyer's My Bookings shows it cancelled.
    await buyerPage.goto('/my-bookings');
    const card = buyerPage.getByRole('article').filter({ hasText: bookingId });
    await card.getByText('Cancelled', { exact: true }).waitFor();
    await card.getByText('The organiser cancelled this booking.').waitFor();
    await saveScreenshot(buyerPage, `refunds-my-bookings-phone.png`, { fullPage: true });

    // The refund mail reaches the dev mailbox (the outbox sender runs every few seconds).
    const subject = `Refund issued - ${ev.eventName}`;
    let found = false;
    for (let i = 0; i < 80 && !found; i++) {
      await buyerPage.goto('/dev/mail');
      found =
        (await buyerPage.getByRole('row').filter({ hasText: email }).filter({ hasText: subject }).count()) >
        0;
      if (!found) await buyerPage.waitForTimeout(500);
    }
    expect(found, `${subject} to ${email} in /dev/mail`).toBe(true);

    expect(organiser.cspViolations).toEqual([]);
    expect(buyer.cspViolations).toEqual([]);
    for (const c of [organiser, buyer, phone]) await c.context.close();
  });
});
