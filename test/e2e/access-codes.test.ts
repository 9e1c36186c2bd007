import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { discountCodes } from '../../src-server/db/schema/discounts.ts';
import { createDiscountCode } from '../../src-server/services/discounts/create-discount-code.ts';
import { expectNoSeriousA11yViolations, newContext, PHONE } from '../helpers/browser.ts';
import { signInNewBuyer } from '../helpers/buyer.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent, expectInventoryInvariant } from '../helpers/inventory.ts';

// Issue 40, ADR 0038: a fan-club presale type is hidden; the fan opens the event link with the code.
describe('access codes on a phone', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;

  it('the event link with ?code= shows the hidden type, and the buyer books it', async () => {
    const { db } = world.database;
    const ev = createTicketedEvent(db, {
      now: new Date(),
      types: [
        { name: 'Stalls', pricePaise: 99_999, totalTickets: 50 },
        { name: 'Fan Club Presale', pricePaise: 40_000, totalTickets: 20 },
      ],
    });
    const presale = ev.ticketTypeIds[1]!;
    db.update(ticketTypes).set({ isHidden: true }).where(eq(ticketTypes.id, presale)).run();
    await createDiscountCode(
      db,
      ev.eventId,
      {
        code: 'FANCLUB',
        kind: 'none',
        percentOff: null,
        amountOffPaise: null,
        ticketTypeIds: null,
        validFrom: null,
        validUntil: null,
        maxUses: 100,
        maxUsesPerBuyer: 1,
        unlocksTicketTypeIds: [presale],
      },
      new Date(),
    );
    const { context } = await newContext(world.browser, baseURL, PHONE);
    const buyer = await signInNewBuyer(db, context, baseURL);
    const page = await context.newPage();

    // Without the code the presale is nowhere.
    await page.goto(`/select-tickets/${ev.eventId}`);
    await page.getByRole('button', { name: 'Select Ticket: Stalls' }).waitFor();
    await expect(page.getByText('Fan Club Presale').count()).resolves.toBe(0);

    // The fan club's link: the code goes on to the ticket selection (typed in any case).
    await page.goto(`/events/${ev.eventId}?code=fanclub`);
    await page.getByRole('heading', { name: ev.eventName }).first().waitFor();
    await page.getByRole('link', { name: 'Book Now' }).filter({ visible: true }).click();
    await page.waitForURL(/\/select-tickets\/.*code=fanclub/);
    const card = page.getByRole('listitem').filter({ hasText: 'Fan Club Presale' });
    await card.getByText('Unlocked by your code').waitFor();
    await page.getByRole('button', { name: 'Select Ticket: Fan Club Presale' }).click();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Checkout' }).click();

    // The checkout applies the code at once, so Proceed sends it.
    await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
    await expect(page.getByTestId('discount-applied').textContent()).resolves.toContain('FANCLUB applied');
    await page.getByRole('button', { name: 'Edit Phone' }).click();
    await page.getByRole('textbox', { name: 'Phone' }).fill('9876543210');
    await page.getByLabel('State').selectOption('Karnataka');
    await page.getByRole('button', { name: 'Proceed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: /^Pay ₹/ }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    const bookingId = (await page.getByTestId('booking-id').textContent())!;

    const booking = db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
    expect(booking).toMatchObject({ userId: buyer.userId, ticketCount: 1, discountCode: 'FANCLUB' });
    expect(booking.ticketType.name).toBe('Fan Club Presale');
    expect(db.select().from(discountCodes).where(eq(discountCodes.eventId, ev.eventId)).get()!.uses).toBe(1);
    expectInventoryInvariant(db, ev.ticketTypeIds);
    await context.close();
  });
});
