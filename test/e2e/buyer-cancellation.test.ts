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
});
