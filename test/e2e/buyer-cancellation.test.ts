import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { formatPaiseExact } from '../../shared/money.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { events, ticketTypes } from '../../src-server/db/schema/catalog.ts';
import {
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
import { pdfPageText } from '../helpers/pdf-text.ts';
import { insertRegisteredOrganiser } from '../helpers/registered-organiser.ts';

describe('a buyer cancels their own booking from My Bookings, in Chromium', () => {
  const world = useE2eWorld();

  it('buy → Cancel booking → the dialog states the refund → cancelled, refund mail in /dev/mail, seats back on sale', async () => {
    const baseURL = e2eServer().baseURL;
    const ev = createTicketedEvent(world.database.db, {
      name: `Sufi Evening ${randomUUID().slice(0, 6)}`,
      types: [{ name: 'Floor', pricePaise: 50_000, totalTickets: 20 }],
      platformFeeRate: 10,
      now: new Date(),
    });
    world.database.db
      .update(events)
      .set({ refundRule: 'minus_fee', refundCutoffHours: 24 })
      .where(eq(events.id, ev.eventId))
      .run();
    const typeId = ev.ticketTypeIds[0]!;
    const available = () =>
      world.database.db
        .select({ n: ticketTypes.availableTickets })
        .from(ticketTypes)
        .where(eq(ticketTypes.id, typeId))
        .get()!.n;

    const buyer = await newContext(world.browser, baseURL, PHONE_390);
    const { email } = await signInNewBuyer(world.database.db, buyer.context, baseURL);
    const page = await buyer.context.newPage();
    await page.goto('/');
    const bookingId = await buyThroughSimulator(page, baseURL, ev, email, 2);
    expect(available()).toBe(18);
    const booked = world.database.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
    const refund = formatPaiseExact(booked.subtotalAmountPaise);

    // The policy is on the event page before purchase.
    await page.goto(`/events/${ev.eventId}`);
    await page
      .getByText('Refundable tickets can be cancelled from My Bookings up to 24 hours')
      .first()
      .waitFor();

    await page.goto('/my-bookings');
    const card = page.getByRole('article').filter({ hasText: bookingId });
    await card.getByText('convenience fee is not refunded').waitFor();
    await card.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    await dialog.getByTestId('refund-amount').waitFor();
    expect(await dialog.getByTestId('refund-amount').textContent()).toBe(refund);
    await saveScreenshot(page, `buyer-cancel-dialog-phone.png`);

    // Desktop, the same dialog.
    const desktop = await newContext(world.browser, baseURL, DESKTOP);
    await desktop.context.addCookies(await buyer.context.cookies());
    const wide = await desktop.context.newPage();
    await wide.goto('/my-bookings');
    await wide
      .getByRole('article')
      .filter({ hasText: bookingId })
      .getByRole('button', { name: 'Cancel booking' })
      .click();
    await wide.getByRole('dialog', { name: 'Cancel this booking?' }).getByTestId('refund-amount').waitFor();
    await expectNoSeriousA11yViolations(wide);
    await saveScreenshot(wide, `buyer-cancel-dialog-desktop.png`);
    await desktop.context.close();

    await dialog.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByText('Cancelled', { exact: true }).waitFor();
    await card.getByText('You cancelled this booking.').waitFor();
    // The page says what was done, politely, above the lists, and focus is on that message: not left at
    // the start of the page when "Cancel booking" went with the card (issue 39).
    const said = page
      .getByRole('status')
      .filter({ hasText: `Booking ${bookingId} cancelled.` })
      .getByText(
        `Booking ${bookingId} cancelled. A refund of ${refund} is on its way to your original payment method.`,
        { exact: true },
      );
    await said.waitFor();
    await expect.poll(() => said.evaluate((p) => p === document.activeElement)).toBe(true);
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, `buyer-cancelled-notice-phone.png`);
    await page.setViewportSize(DESKTOP);
    await saveScreenshot(page, `buyer-cancelled-notice-desktop.png`);
    await page.setViewportSize(PHONE_390);
    await saveScreenshot(page, `buyer-cancelled-phone.png`, { fullPage: true });
    expect(available()).toBe(20);

    const subject = `Refund issued - ${ev.eventName}`;
    let found = false;
    for (let i = 0; i < 80 && !found; i++) {
      await page.goto('/dev/mail');
      found =
        (await page.getByRole('row').filter({ hasText: email }).filter({ hasText: subject }).count()) > 0;
      if (!found) await page.waitForTimeout(500);
    }
    expect(found, `${subject} to ${email} in /dev/mail`).toBe(true);

    // A booking of a non-refundable ticket type says why it cannot be cancelled, and offers no button.
    const strict = createTicketedEvent(world.database.db, {
      name: `No Refunds ${randomUUID().slice(0, 6)}`,
      now: new Date(),
    });
    world.database.db
      .update(ticketTypes)
      .set({ isRefundable: false })
      .where(eq(ticketTypes.id, strict.ticketTypeIds[0]!))
      .run();
    const strictId = await buyThroughSimulator(page, baseURL, strict, email, 2);
    await page.goto('/my-bookings');
    const strictCard = page.getByRole('article').filter({ hasText: strictId });
    await strictCard.getByText('tickets that are not refundable, so it cannot be cancelled').waitFor();
    expect(await strictCard.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
    await saveScreenshot(page, `buyer-cannot-cancel-phone.png`, { fullPage: true });
    // The ticket page says the same; a cancelled one says who cancelled it.
    await page.goto(`/ticket/${strictId}`);
    await page.getByText('tickets that are not refundable, so it cannot be cancelled').waitFor();
    await page.goto(`/ticket/${bookingId}`);
    await page.getByText(`You cancelled booking ${bookingId}`).waitFor();

    expect(buyer.cspViolations).toEqual([]);
    await buyer.context.close();
  });

  it('Cancel some tickets → the refund stated → the part credit note’s link on the card → its PDF', async () => {
    const baseURL = e2eServer().baseURL;
    // A GST-registered organiser (as in invoices.test.ts), so the booking has invoices to credit.
    const organiserId = insertRegisteredOrganiser(world.database.db, 'Tala Collective');
    const ev = createTicketedEvent(world.database.db, {
      name: `Qawwali Night ${randomUUID().slice(0, 6)}`,
      city: 'Mumbai',
      types: [{ name: 'Floor', pricePaise: 59_000, totalTickets: 20 }],
      platformFeeRate: 10,
      now: new Date(),
    });
    world.database.db
      .update(events)
      .set({ ownerId: organiserId, refundRule: 'minus_fee', refundCutoffHours: 24 })
      .where(eq(events.id, ev.eventId))
      .run();

    const buyer = await newContext(world.browser, baseURL, PHONE_390);
    const { email } = await signInNewBuyer(world.database.db, buyer.context, baseURL);
    const page = await buyer.context.newPage();
    await page.goto('/');
    const bookingId = await buyThroughSimulator(page, baseURL, ev, email, 2);
    // 'minus_fee': one ticket of two is half the ticket money back, the convenience fee kept.
    const booked = world.database.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
    const refund = formatPaiseExact(booked.subtotalAmountPaise / 2);
    expect(refund).toBe('₹590.00');

    await page.goto('/my-bookings');
    const card = page.getByRole('article').filter({ hasText: bookingId });
    await card.getByRole('link', { name: /^Download GST invoice INV\// }).waitFor();
    expect(await card.getByRole('link', { name: /credit note/i }).count()).toBe(0);
    await card.getByRole('button', { name: 'Cancel some tickets' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel some tickets?' });
    await dialog.getByLabel('Floor tickets to cancel').fill('1');
    await saveScreenshot(page, 'cancel-some-dialog-phone.png');
    await page.setViewportSize(DESKTOP);
    await saveScreenshot(page, 'cancel-some-dialog-desktop.png');
    await page.setViewportSize(PHONE_390);
    await dialog.getByRole('button', { name: 'Cancel these tickets' }).click();
    await dialog.getByRole('status').or(dialog.getByRole('alert')).waitFor();
    expect(await dialog.getByRole('status').or(dialog.getByRole('alert')).textContent()).toContain(
      `A refund of ${refund} is on its way`,
    );
    // One ticket is left, so "Cancel some tickets" has gone from the card; the refund stays said.
    await card
      .getByRole('button', { name: 'Cancel some tickets', includeHidden: true })
      .waitFor({ state: 'detached' });
    await dialog.getByRole('status').getByText(`A refund of ${refund}`).waitFor();
    await saveScreenshot(page, 'cancel-some-done-phone.png');
    await page.setViewportSize(DESKTOP);
    await saveScreenshot(page, 'cancel-some-done-desktop.png');
    await page.setViewportSize(PHONE_390);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Focus goes to the card's "Cancel booking" beside where the opener was, not to the page's start.
    await expect
      .poll(() =>
        card.getByRole('button', { name: 'Cancel booking' }).evaluate((b) => b === document.activeElement),
      )
      .toBe(true);

    // The credit note's link comes without a reload, named by its number and amount.
    const link = card.getByRole('link', {
      name: new RegExp(`^Download Credit note CRN/\\d\\d-\\d\\d/000001 for ${refund}$`),
    });
    await link.waitFor();
    await card.getByText('Floor x 1').waitFor();
    const number = (await link.textContent())!.match(/CRN\/\d\d-\d\d\/\d{6}/)![0];
    const pdf = await page.request.get(new URL((await link.getAttribute('href'))!, baseURL).href);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const text = pdfPageText(await pdf.body());
    expect(text).toContain(number);
    expect(text).toContain('Credit note total: Rs. 590.00');
    // The card is taller than the phone: the part of it around the link, under the sticky header.
    await link.evaluate((a) => a.scrollIntoView({ block: 'center' }));
    await saveScreenshot(page, 'part-cn-phone.png');

    // Desktop: the same card, the link among the others.
    const desktop = await newContext(world.browser, baseURL, DESKTOP);
    await desktop.context.addCookies(await buyer.context.cookies());
    const wide = await desktop.context.newPage();
    await wide.goto('/my-bookings');
    const wideCard = wide.getByRole('article').filter({ hasText: bookingId });
    await wideCard.getByRole('link', { name: `Download Credit note ${number} for ${refund}` }).waitFor();
    await expectNoSeriousA11yViolations(wide);
    await saveScreenshot(wideCard, 'part-cn-desktop.png');
    await desktop.context.close();

    expect(buyer.cspViolations).toEqual([]);
    await buyer.context.close();
  });
});
