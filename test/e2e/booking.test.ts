import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { expectNoSeriousA11yViolations, newContext, PHONE } from '../helpers/browser.ts';
import { selectTwoGold, signInNewBuyer } from '../helpers/buyer.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent, expectInventoryInvariant, type TicketedEvent } from '../helpers/inventory.ts';

describe('booking in Chromium with the payment simulator', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;

  it('select → sign in → checkout with validation → pay → success overlay → the ticket', async () => {
    const ev = createTicketedEvent(world.database.db, {
      now: new Date(),
      types: [
        { name: 'Lounge Pass', pricePaise: 49_999, totalTickets: 50 },
        { name: 'Gold Circle', pricePaise: 99_999, totalTickets: 25 },
      ],
    });
    const { context, cspViolations } = await newContext(world.browser, baseURL);
    const page = await context.newPage();
    await selectTwoGold(page, ev);
    await expectNoSeriousA11yViolations(page);

    // Signed out: the Checkout link goes through /login and back.
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.waitForURL(/\/login\?redirect=/);
    const back = new URL(page.url()).searchParams.get('redirect')!;
    expect(back).toContain('/checkout-tickets');
    const buyer = await signInNewBuyer(world.database.db, context, baseURL);
    await page.goto(back);

    await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
    const ticketDetails = page.getByRole('region', { name: 'Ticket Details' });
    await ticketDetails.getByText('Meera Iyer').waitFor();
    await ticketDetails.getByText(buyer.email).waitFor();
    // 1999.98 + fee 100.00 + IGST 18.00
    await expect(page.getByTestId('grand-total').textContent()).resolves.toBe('₹2,117.98');
    await page.getByRole('button', { name: /Booking Fee/ }).click();
    await page.getByText('Convenience Fee').waitFor();
    // The fee's heads follow the buyer's state (issue 36): none chosen yet, so neither CGST nor IGST.
    await page.getByText('GST 18%', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Proceed' }).click();
    const banner = page.getByTestId('payment-error');
    await banner.waitFor();
    const bannerText = await banner.textContent();
    expect(bannerText).toContain('Payment Error:');
    expect(bannerText).toContain('Please complete all required fields:');
    expect(bannerText).toContain('Phone number is required');
    expect(bannerText).toContain('State is required');
    expect(bannerText).not.toContain('Name is required');

    // Proceed opened the first field to fix (its input, once open: until then the label names the closed
    // field's value and its Edit button, and a locator matching two elements fails at once).
    await page.getByRole('textbox', { name: 'Phone' }).fill('12345');
    await page.getByRole('button', { name: 'Proceed' }).click();
    await expect(page.getByTestId('payment-error').textContent()).resolves.toContain(
      'Please enter a valid phone number',
    );
    await page.getByRole('button', { name: 'Dismiss payment error' }).click();
    await expect(page.getByTestId('payment-error').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Edit Phone' }).click();
    await page.getByRole('textbox', { name: 'Phone' }).fill('+91 98765-43210');
    await page.getByLabel('State').selectOption('Karnataka');
    await expectNoSeriousA11yViolations(page);

    // A reload keeps the selection (URL) and what was typed (session storage).
    await page.reload();
    await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
    await page.getByText('+91 98765-43210').waitFor();
    await expect(page.getByLabel('State').inputValue()).resolves.toBe('Karnataka');

    await page.getByRole('button', { name: 'Proceed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(page.getByTestId('hold-countdown').textContent()).resolves.toMatch(/^[45]:\d\d$/);
    await dialog.getByRole('button', { name: 'Pay ₹2,117.98' }).click();

    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await page.getByText('Your booking has been confirmed').waitFor();
    await page.getByText('Redirecting to your ticket...').waitFor();
    const bookingId = (await page.getByTestId('booking-id').textContent())!;
    expect(bookingId).toMatch(/^JB[2-9A-Z]{10}$/);
    await page.waitForURL(new RegExp(`/ticket/${bookingId}$`), { timeout: 10_000 });

    const booking = world.database.db.select().from(bookings).where(eq(bookings.id, bookingId)).get();
    expect(booking).toMatchObject({
      userId: buyer.userId,
      userPhone: '9876543210',
      userState: 'Karnataka',
      ticketCount: 2,
      totalAmountPaise: 211_798,
    });
    expect(booking?.ticketType.name).toBe('Gold Circle');
    expectInventoryInvariant(world.database.db, ev.ticketTypeIds);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('fail → banner → dismiss → banner → retry → success, on a phone', async () => {
    const ev = createTicketedEvent(world.database.db, {
      now: new Date(),
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 3 }],
    });
    const { context } = await newContext(world.browser, baseURL, PHONE);
    await signInNewBuyer(world.database.db, context, baseURL);
    const page = await context.newPage();
    await selectTwoGold(page, ev);
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
    await page.getByRole('button', { name: 'Edit Phone' }).click();
    await page.getByRole('textbox', { name: 'Phone' }).fill('9876543210');
    await page.getByLabel('State').selectOption('Delhi');

    await page.getByRole('button', { name: 'Proceed' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Fail', exact: true }).click();
    await dialog.getByLabel('Failure description').fill('Card declined by the issuing bank');
    await dialog.getByRole('button', { name: 'Fail payment' }).click();
    await expect(page.getByTestId('payment-error').textContent()).resolves.toContain(
      'Payment failed: Card declined by the issuing bank',
    );
    // The failed attempt gave its seats back.
    await expect.poll(() => availableOf(ev)).toBe(3);

    await page.getByRole('button', { name: 'Proceed' }).click();
    dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect.poll(() => availableOf(ev)).toBe(1);
    await dialog.getByRole('button', { name: 'Dismiss' }).click();
    // The buyer closed the window themselves: said plainly, not as a red 'Payment Error:'.
    await expect(page.getByTestId('payment-notice').locator('p').textContent()).resolves.toBe(
      'Payment was cancelled. You can try again when ready.',
    );
    await expect(page.getByTestId('payment-error').count()).resolves.toBe(0);
    await expect.poll(() => availableOf(ev)).toBe(3);

    await page.getByRole('button', { name: 'Proceed' }).click();
    dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: /^Pay ₹/ }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await page.waitForURL(/\/ticket\/JB[2-9A-Z]{10}$/, { timeout: 10_000 });
    expect(availableOf(ev)).toBe(1);
    expectInventoryInvariant(world.database.db, ev.ticketTypeIds);
    await context.close();
  });

  it('/temp-checkout pays 10,000 rupees through the app order endpoint and the simulator', async () => {
    const { context } = await newContext(world.browser, baseURL);
    const page = await context.newPage();
    // Alerts are accepted the moment they open, so a pending alert never stalls a click.
    const alerts: string[] = [];
    page.on('dialog', (shown) => {
      alerts.push(shown.message());
      void shown.accept();
    });
    await page.goto('/temp-checkout');
    await page.getByRole('heading', { name: 'Razorpay Payment' }).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain('Ticket Booking');
    await dialog.getByRole('button', { name: 'Pay ₹10,000.00' }).click();
    await expect.poll(() => alerts.length, { timeout: 30_000 }).toBe(1);
    expect(alerts[0]).toMatch(/Payment ID: pay_[A-Za-z0-9]{14}/);

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Fail', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Failure description').fill('Insufficient funds');
    await page.getByRole('dialog').getByRole('button', { name: 'Fail payment' }).click();
    await expect.poll(() => alerts.length, { timeout: 30_000 }).toBe(2);
    expect(alerts[1]).toContain('Description: Insufficient funds');
    expect(alerts[1]).toMatch(/Order ID: order_\w+/);
    await context.close();
  });

  function availableOf(ev: TicketedEvent): number {
    const row = world.database.sqlite
      .prepare('select available_tickets as n from ticket_types where id = ?')
      .get(ev.ticketTypeIds[ev.ticketTypeIds.length - 1]) as { n: number };
    return row.n;
  }
});
