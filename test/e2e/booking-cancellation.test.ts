import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src-server/db/client.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import {
  type Browser,
  type BrowserContext,
  DESKTOP,
  expectNoSeriousA11yViolations,
  launchBrowser,
  newContext,
  type Page,
  PHONE_390,
} from '../helpers/browser.ts';
import { signInNewBuyer } from '../helpers/buyer.ts';
import { createTicketedEvent, type TicketedEvent } from '../helpers/inventory.ts';

const SHOTS = '/tmp';

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

/** The buyer pays for one ticket through the real API and the offline simulator (as the checkout page does). */
async function buyOneTicket(page: Page, baseURL: string, ev: TicketedEvent, email: string): Promise<string> {
  const headers = { origin: baseURL, 'content-type': 'application/json' };
  const start = await page.request.post('/trpc/payments.start', {
    headers,
    data: {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 1 }],
      ticketDetails: { name: 'Meera Iyer', email, phone: '+91 98765-43210', state: 'Karnataka' },
    },
  });
  expect(start.status(), await start.text()).toBe(200);
  const { orderId } = (await start.json()).result.data as { orderId: string };
  const pay = await page.request.post(`/api/simulator/orders/${orderId}/pay`, { headers });
  const paid = (await pay.json()) as Record<string, string>;
  const confirmed = await page.request.post('/trpc/payments.confirm', {
    headers,
    data: {
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    },
  });
  const outcome = (await confirmed.json()).result.data as { outcome: string; bookingId: string };
  expect(outcome.outcome).toBe('booked');
  return outcome.bookingId;
}

describe('an organiser cancels a booking from its page, in Chromium', () => {
  let browser: Browser;
  let database: DatabaseHandle;
  beforeAll(async () => {
    browser = await launchBrowser();
    database = openDatabase(path.join(inject('e2eDataDir'), 'jalsa.db'));
  });
  afterAll(async () => {
    database?.close();
    await browser?.close();
  });

  it('confirm dialog → cancelled with a full refund; the buyer sees it cancelled and the refund mail is in /dev/mail', async () => {
    const baseURL = inject('baseURL');
    const organiser = await newContext(browser, baseURL, DESKTOP);
    const ownerId = await signInNewOrganiser(database.db, organiser.context, baseURL);
    const ev = createTicketedEvent(database.db, { name: `Raga Night ${randomUUID().slice(0, 6)}` });
    database.db.update(events).set({ ownerId }).where(eq(events.id, ev.eventId)).run();

    const buyer = await newContext(browser, baseURL, PHONE_390);
    const { email } = await signInNewBuyer(database.db, buyer.context, baseURL);
    const buyerPage = await buyer.context.newPage();
    await buyerPage.goto('/');
    const bookingId = await buyOneTicket(buyerPage, baseURL, ev, email);
    const bookingPath = `/organiser/events/${ev.eventId}/bookings/${bookingId}`;

    // Phone: the booking page and its cancel dialog (kept), and the slot's cancel dialog in the editor.
    const phone = await newContext(browser, baseURL, PHONE_390);
    await phone.context.addCookies(await organiser.context.cookies());
    const phonePage = await phone.context.newPage();
    await phonePage.goto(bookingPath);
    await phonePage.getByRole('heading', { name: `Booking ${bookingId}` }).waitFor();
    await phonePage.getByText('Meera Iyer').first().waitFor();
    await phonePage.screenshot({ path: `${SHOTS}/refunds-booking-phone.png`, fullPage: true });
    await phonePage.getByRole('button', { name: 'Cancel booking' }).click();
    await phonePage.getByRole('dialog', { name: 'Cancel this booking?' }).waitFor();
    await phonePage.screenshot({ path: `${SHOTS}/refunds-cancel-booking-dialog-phone.png` });
    await phonePage.getByRole('button', { name: 'Keep it' }).click();
    await phonePage.goto(`/organiser/events/${ev.eventId}/edit`);
    await phonePage.getByRole('button', { name: /^Cancel slot / }).click();
    const slotDialog = phonePage.getByRole('dialog', { name: /Cancel the slot/ });
    await slotDialog.getByText('1 booking will be cancelled and refunded in full').waitFor();
    await phonePage.screenshot({ path: `${SHOTS}/refunds-cancel-slot-dialog-phone.png` });
    await slotDialog.getByRole('button', { name: 'Keep it' }).click();

    // Desktop: the event's cancel dialog names the booking too; then the booking is cancelled from its page.
    const page = await organiser.context.newPage();
    await page.goto(`/organiser/events/${ev.eventId}/edit`);
    await page.getByRole('button', { name: 'Cancel event' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel the whole event?' })
      .getByText('1 booking will be')
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/refunds-cancel-event-dialog-desktop.png` });
    await page.getByRole('button', { name: 'Keep it' }).click();

    await page.goto(bookingPath);
    await page.getByRole('heading', { name: `Booking ${bookingId}` }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/refunds-booking-desktop.png`, fullPage: true });
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    await dialog.getByText('is refunded in full').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/refunds-cancel-booking-dialog-desktop.png` });
    await dialog.getByRole('button', { name: 'Cancel and refund' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Cancelled', { exact: true }).waitFor();
    await page.getByText('Refunded', { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}/refunds-booking-cancelled-desktop.png`, fullPage: true });

    // The buyer's My Bookings shows it cancelled.
    await buyerPage.goto('/my-bookings');
    const card = buyerPage.getByRole('article').filter({ hasText: bookingId });
    await card.getByText('Cancelled', { exact: true }).waitFor();
    await card.getByText('The organiser cancelled this booking.').waitFor();
    await buyerPage.screenshot({ path: `${SHOTS}/refunds-my-bookings-phone.png`, fullPage: true });

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
