import { describe, expect, it } from 'vitest';
import { checkoutSessionOf } from './checkout-session.ts';

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
      {
        eventId: 'evt-1',
        eventName: 'Retro Bollywood Live',
        slotId: 'slot-1',
        lines: [{ ticketTypeId: 'type-1', name: 'Gold Circle', quantity: 2 }],
        details: { name: 'Meera Iyer', email: 'meera@example.com', phone: '9876543210' },
        discount: null,
        admissionTaxPaise: 0,
        feeTaxRatePercent: 18,
      },
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
});
