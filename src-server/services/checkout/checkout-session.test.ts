import { describe, expect, it } from 'vitest';
import { checkoutSessionOf } from './checkout-session.ts';

/** Two Gold Circle tickets of one slot, bought by Meera with no code; the fee taxed at 18 %. */
const SALE = {
  eventId: 'evt-1',
  eventName: 'Retro Bollywood Live',
  slotId: 'slot-1',
  lines: [{ ticketTypeId: 'type-1', name: 'Gold Circle', quantity: 2 }],
  details: { name: 'Meera Iyer', email: 'meera@example.com', phone: '9876543210' },
  discount: null,
  feeTaxRatePercent: 18,
};

describe('checkoutSessionOf', () => {
  it("opens the payment window with the hold's own amounts and the sale's names", () => {
    const hold = {
      id: 'hold-1',
      subtotalPaise: 199_998,
      feePaise: 10_000,
      igstPaise: 1_800,
      totalPaise: 211_798,
      sessionExpiresAt: '2026-12-05T10:05:00.000Z',
      expiresAt: '2026-12-05T10:07:00.000Z',
    };
    const session = checkoutSessionOf(
      hold,
      { gateway: { name: 'simulator', keyId: 'rzp_test_sim' }, orderId: 'order_1' },
      SALE,
    );
    expect(session).toEqual({
      holdId: 'hold-1',
      gateway: 'simulator',
      keyId: 'rzp_test_sim',
      orderId: 'order_1',
      amountPaise: 211_798,
      currency: 'INR',
      name: 'Jalsa',
      description: 'Retro Bollywood Live - Ticket Booking',
      prefill: { name: 'Meera Iyer', email: 'meera@example.com', contact: '9876543210' },
      notes: {
        event_id: 'evt-1',
        slot_id: 'slot-1',
        tickets: JSON.stringify([{ id: 'type-1', name: 'Gold Circle', quantity: 2 }]),
      },
      discountCode: null,
      discountPaise: 0,
      subtotalPaise: 199_998,
      // No add-ons chosen (ADR 0041).
      addOnsPaise: 0,
      admissionTaxPaise: 0,
      feePaise: 10_000,
      igstPaise: 1_800,
      feeTaxRatePercent: 18,
      sessionExpiresAt: '2026-12-05T10:05:00.000Z',
      expiresAt: '2026-12-05T10:07:00.000Z',
    });
  });

  it('reads the ticket GST back from the hold, leaving out the add-ons and their own GST', () => {
    // 2 × ₹1,000.00 tax-exclusive at 18 %: ₹360.00; fee ₹100.00 + ₹18.00; add-ons ₹500.00 (GST inside).
    const hold = {
      id: 'hold-2',
      subtotalPaise: 200_000,
      feePaise: 10_000,
      igstPaise: 1_800,
      totalPaise: 297_800,
      sessionExpiresAt: '2026-12-05T10:05:00.000Z',
      expiresAt: '2026-12-05T10:07:00.000Z',
    };
    const session = checkoutSessionOf(
      hold,
      { gateway: { name: 'simulator', keyId: 'rzp_test_sim' }, orderId: 'order_2' },
      { ...SALE, addOnsPaise: 50_000 },
    );
    expect(session).toMatchObject({ amountPaise: 297_800, admissionTaxPaise: 36_000, addOnsPaise: 50_000 });
  });
});
