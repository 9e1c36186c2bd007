import { describe, expect, it } from 'vitest';
import { describeRefundPolicy, refundAmountPaise } from './refund-policy.ts';

// ₹1,000 of tickets, ₹100 convenience fee, ₹18 IGST on it.
const booking = { totalAmountPaise: 111_800, feeAmountPaise: 10_000, igstAmountPaise: 1_800 };

describe('refund policy', () => {
  it('refunds the whole total, the total less the booking fee, or a share rounded down to the paisa', () => {
    expect(refundAmountPaise({ cutoffHours: 24, rule: 'full', percent: null }, booking)).toBe(111_800);
    expect(refundAmountPaise({ cutoffHours: 24, rule: 'minus_fee', percent: null }, booking)).toBe(100_000);
    expect(refundAmountPaise({ cutoffHours: 24, rule: 'percent', percent: 33 }, booking)).toBe(36_894);
    expect(
      refundAmountPaise(
        { cutoffHours: 24, rule: 'minus_fee', percent: null },
        { ...booking, totalAmountPaise: 0 },
      ),
    ).toBe(0);
  });

  it('says when and how much in one sentence', () => {
    expect(describeRefundPolicy({ cutoffHours: 24, rule: 'full', percent: null })).toBe(
      'Refundable tickets can be cancelled from My Bookings up to 24 hours before the show, for a full refund.',
    );
    expect(describeRefundPolicy({ cutoffHours: 1, rule: 'percent', percent: 50 })).toContain(
      'up to 1 hour before the show, for a refund of 50% of the amount paid',
    );
    expect(describeRefundPolicy({ cutoffHours: 0, rule: 'minus_fee', percent: null })).toContain(
      'until the show starts, for a refund of the ticket price (the convenience fee is not refunded)',
    );
  });
});
