import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { waitlistEntries } from '../../src-server/db/schema/on-sale.ts';
import { DESKTOP, expectNoSeriousA11yViolations, PHONE_390, saveScreenshot } from '../helpers/browser.ts';
import { openMail } from '../helpers/dev-mail.ts';
import { buyThroughSimulator, useE2eContexts, useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent, expectInventoryInvariant } from '../helpers/inventory.ts';

describe('the waiting list after sell-out, in Chromium', () => {
  const world = useE2eWorld();
  const { baseURL, open, openSignedIn } = useE2eContexts(world);

  it('sold out → a buyer joins → a booking is cancelled → the offer mail’s link → Pay → booked', async () => {
    const ev = createTicketedEvent(world.database.db, {
      name: `Sufi Evening ${randomUUID().slice(0, 6)}`,
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 1 }],
      now: new Date(),
    });
    const typeId = ev.ticketTypeIds[0]!;

    // The only seat is bought: the type is sold out.
    const { page: firstPage, email: firstEmail } = await openSignedIn(DESKTOP);
    await firstPage.goto('/');
    const soldBooking = await buyThroughSimulator(firstPage, baseURL, ev, firstEmail, 1);

    // The fourth buyer joins the waiting list from ticket selection, on a phone.
    const waiter = await openSignedIn(PHONE_390);
    const { email, page } = waiter;
    await page.goto(`/select-tickets/${ev.eventId}`);
    await page.getByRole('heading', { name: ev.eventName }).waitFor();
    await page.getByRole('button', { name: 'Join waiting list' }).click();
    const form = page.getByRole('form', { name: 'Join the waiting list for Gold Circle' });
    await form.getByRole('button', { name: 'Join waiting list' }).click();
    // The checkout's own schema speaks for the missing phone and state.
    await form.getByText('Phone number is required').waitFor();
    await form.getByRole('textbox', { name: 'Phone' }).fill('98765 43210');
    await form.getByLabel('State').selectOption('Karnataka');
    await saveScreenshot(page, `waitlist-join-form-390.png`, { fullPage: true });
    await form.getByRole('button', { name: 'Join waiting list' }).click();
    await page.getByText("You're on the waiting list (#1)").waitFor();
    await saveScreenshot(page, `waitlist-joined-390.png`, { fullPage: true });

    // My Bookings shows the place in line.
    await page.goto('/my-bookings');
    const entry = page.getByTestId('waitlist-entry').filter({ hasText: ev.eventName });
    await entry.getByText('Place in line: #1').waitFor();
    await saveScreenshot(page, `waitlist-my-bookings-390.png`, { fullPage: true });

    // The first buyer cancels: the seat goes straight to the waiting list, in the same transaction.
    const cancelled = await firstPage.request.post('/trpc/bookings.cancel', {
      headers: { origin: baseURL, 'content-type': 'application/json' },
      data: { bookingId: soldBooking },
    });
    expect(cancelled.status(), await cancelled.text()).toBe(200);
    const offered = world.database.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.ticketTypeId, typeId))
      .get();
    expect(offered?.status).toBe('offered');
    expect(
      world.database.db.select().from(ticketTypes).where(eq(ticketTypes.id, typeId)).get(),
    ).toMatchObject({
      availableTickets: 0,
    });

    // The offer mail arrives; its link leads to the offer page (the mail names the server's own
    // address, localhost; the browser's session is on 127.0.0.1, so the same path is opened there).
    const inbox = await waiter.context.newPage();
    await openMail(inbox, email, 'are held for you');
    await inbox.goto(`${inbox.url()}/html`);
    const href = await inbox.getByRole('link', { name: 'Pay for your tickets' }).getAttribute('href');
    const offerPath = new URL(href!).pathname;
    expect(offerPath).toBe(`/waitlist/offers/${offered!.id}`);

    await page.goto('/my-bookings');
    await entry.getByText(/Offer: pay by/).waitFor();
    await page.goto(offerPath);
    await page.getByTestId('offer-amounts').waitFor();
    await expect(page.getByTestId('offer-amounts').textContent()).resolves.toContain('Gold Circle × 1');
    await saveScreenshot(page, `waitlist-offer-390.png`, { fullPage: true });
    // The same pages at desktop width, while the offer is live.
    const wideOffer = await open(DESKTOP);
    await wideOffer.context.addCookies(await waiter.context.cookies());
    const desk = await wideOffer.context.newPage();
    await desk.goto('/my-bookings');
    await desk
      .getByTestId('waitlist-entry')
      .getByText(/Offer: pay by/)
      .waitFor();
    await saveScreenshot(desk, `waitlist-my-bookings-1280.png`);
    await desk.goto(`/select-tickets/${ev.eventId}`);
    await desk.getByText('Seats are held for you.').waitFor();
    await saveScreenshot(desk, `waitlist-select-offered-1280.png`);
    await desk.goto(offerPath);
    await desk.getByTestId('offer-amounts').waitFor();
    await expectNoSeriousA11yViolations(desk);
    await saveScreenshot(desk, `waitlist-offer-1280.png`);

    // Pay → the simulator's window → booked.
    await page.getByRole('button', { name: /^Pay ₹/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /^Pay ₹/ }).click();
    await page.getByText('Payment Successful!').waitFor({ timeout: 20_000 });
    const bookingId = (await page.getByTestId('booking-id').textContent())!;
    const booking = world.database.db.select().from(bookings).where(eq(bookings.id, bookingId)).get();
    expect(booking).toMatchObject({ status: 'confirmed', ticketCount: 1 });
    expect(
      world.database.db.select().from(waitlistEntries).where(eq(waitlistEntries.id, offered!.id)).get()
        ?.status,
    ).toBe('booked');
    expectInventoryInvariant(world.database.db, [typeId]);

    // The offer page at desktop width, now that it is paid, passes the accessibility check.
    const wide = await open(DESKTOP);
    await wide.context.addCookies(await waiter.context.cookies());
    const widePage = await wide.context.newPage();
    await widePage.goto(offerPath);
    await widePage.getByText('You booked these tickets').waitFor();
    await expectNoSeriousA11yViolations(widePage);
    await saveScreenshot(widePage, `waitlist-offer-booked-1280.png`);
    expect(waiter.cspViolations).toEqual([]);
  }, 180_000);
});
