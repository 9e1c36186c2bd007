import { eq, like } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { TICKET_GST_LABEL } from '../../shared/pricing.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { AddOnRow } from '../../src-server/services/add-ons/list-add-ons.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { account, mailOn, signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * The booking-confirmed mail lists the add-ons bought with the tickets (issue 40): each line's name, size
 * and quantity with what it cost, in the HTML and the text part, so the buyer knows what to collect at the
 * entrance; and their amount is not mistaken for GST on the tickets. A resend from the console says the same.
 */
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const TSHIRT = {
  name: 'T-shirt',
  description: 'Tour T-shirt',
  pricePaise: 50_000,
  taxRatePercent: 5,
  hsnSac: '6109',
  maxPerOrder: 5,
  ticketTypeIds: null,
  isActive: true,
  variants: [
    { name: 'M', stock: 10 },
    { name: 'L', stock: 10 },
  ],
};
const PARKING = {
  ...TSHIRT,
  name: 'Parking',
  hsnSac: '9967',
  taxRatePercent: 18,
  variants: [{ name: '', stock: 5 }],
};

/** A GST-registered organiser's event in Mumbai, with a T-shirt in two sizes and a parking pass. */
async function eventWithAddOns(taxInclusive: boolean) {
  t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
  const owner = await account(t, 'organiser');
  const ev = await createTicketedEventOn(t.deps.db, {
    city: 'Mumbai',
    types: [{ name: 'General', pricePaise: 75_000, totalTickets: 200 }],
  });
  const { events, organiserProfiles } = tablesOf(t.deps.db);
  await t.deps.db
    .update(events)
    .set({ ownerId: owner.userId, taxInclusive })
    .where(eq(events.id, ev.eventId));
  await t.deps.db.insert(organiserProfiles).values({
    userId: owner.userId,
    legalName: 'Tala Collective LLP',
    address: '12 Hill Road, Mumbai',
    state: 'Maharashtra',
    gstin: '27AAPFU0939F1ZV',
    updatedAt: t.clock.now().toISOString(),
  });
  for (const addOn of [TSHIRT, PARKING]) {
    const made = await callProcedure(
      t,
      'mutation',
      'console.createAddOn',
      { eventId: ev.eventId, addOn },
      { cookie: owner.cookie },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  }
  const listed = await callProcedure(
    t,
    'query',
    'console.addOns',
    { eventId: ev.eventId },
    { cookie: owner.cookie },
  );
  const variant = (name: string, size: string) =>
    (listed.data as AddOnRow[]).find((a) => a.name === name)!.variants.find((v) => v.name === size)!.id;
  return { ev, owner, variant };
}

async function buy(ev: TicketedEvent, addOns: { variantId: string; quantity: number }[]) {
  const buyer = await signedInUser(t);
  const held = await callProcedure(
    t,
    'mutation',
    'payments.start',
    {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 2 }],
      ticketDetails: DETAILS,
      addOns,
    },
    { cookie: buyer.cookie },
  );
  expect(held.status, JSON.stringify(held.body)).toBe(200);
  const session = held.data as CheckoutSession;
  const confirmed = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
  expect(confirmed.data).toMatchObject({ outcome: 'booked' });
  return { bookingId: (confirmed.data as { bookingId: string }).bookingId, session };
}

describe('the booking-confirmed mail and add-ons', () => {
  it('lists each add-on (name, size, quantity, amount) in both parts; prices with GST: no "GST on tickets"', async () => {
    const { ev, owner, variant } = await eventWithAddOns(true);
    const { bookingId } = await buy(ev, [
      { variantId: variant('T-shirt', 'L'), quantity: 2 },
      { variantId: variant('Parking', ''), quantity: 1 },
    ]);
    const mail = (await mailOn(t, `booking-confirmed:${bookingId}`))!;
    // The lines come in the booking's order (the hold takes variants in id order): each is checked apart.
    const addOnPart = mail.text.split(
      'Add-ons (collect them at the entrance; amounts include their GST):\n',
    )[1];
    expect(addOnPart?.split('\n').slice(0, 2).sort()).toEqual([
      '  1 × Parking: ₹500.00',
      '  2 × T-shirt (L): ₹1,000.00',
    ]);
    expect(mail.html).toContain('Add-ons (collect them at the entrance; amounts include their GST)');
    expect(mail.html).toMatch(/>2 × T-shirt \(L\)<\/td><td[^>]*>₹1,000\.00</);
    expect(mail.html).toMatch(/>1 × Parking<\/td><td[^>]*>₹500\.00</);
    // Prices include GST: the ₹1,500 of add-ons are not shown as tax on the tickets.
    expect(mail.text).not.toContain(TICKET_GST_LABEL);
    expect(mail.html).not.toContain(TICKET_GST_LABEL);

    // The console's resend is the same mail.
    const resent = await callProcedure(
      t,
      'mutation',
      'eventBookings.resendTicket',
      { eventId: ev.eventId, bookingId },
      { cookie: owner.cookie },
    );
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    const { outbox } = tablesOf(t.deps.db);
    const resends = await t.deps.db
      .select({ html: outbox.html, text: outbox.text })
      .from(outbox)
      .where(like(outbox.idempotencyKey, `booking-resent:${bookingId}:%`));
    expect(resends).toEqual([{ html: mail.html, text: mail.text }]);
  });

  it('prices plus GST: the ticket GST line is the tickets’ tax only, and the lines add up to the total', async () => {
    const { ev, variant } = await eventWithAddOns(false);
    const { bookingId, session } = await buy(ev, [{ variantId: variant('T-shirt', 'M'), quantity: 1 }]);
    const { text } = (await mailOn(t, `booking-confirmed:${bookingId}`))!;
    // 2 × ₹750 + 18 % GST (₹270.00), the T-shirt's ₹500 + its own 5 % (₹525.00), the fee, the total paid.
    expect(text).toContain(`${TICKET_GST_LABEL}: ₹270.00`);
    expect(text).toContain('  1 × T-shirt (M): ₹525.00');
    const paise = (re: RegExp) => Math.round(Number(re.exec(text)?.[1]?.replace(/[₹,]/g, '')) * 100);
    const lines = [
      /^Subtotal: (₹\S+)$/m,
      /^GST on tickets \(prices exclude GST\): (₹\S+)$/m,
      /^ {2}1 × T-shirt \(M\): (₹\S+)$/m,
      /^Booking fee.*: (₹\S+)$/m,
    ].map(paise);
    expect(lines.reduce((a, b) => a + b, 0)).toBe(session.amountPaise);
    expect(paise(/^Total paid: (₹\S+)$/m)).toBe(session.amountPaise);
  });
});
