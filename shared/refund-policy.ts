/** How much of a booking a buyer gets back when they cancel it themselves (issue 16, ADR 0019). */
export const REFUND_RULES = ['full', 'minus_fee', 'percent'] as const;
export type RefundRule = (typeof REFUND_RULES)[number];

export const DEFAULT_REFUND_CUTOFF_HOURS = 24;

export interface RefundPolicy {
  /** Cancelling closes this many hours before the slot starts. */
  cutoffHours: number;
  rule: RefundRule;
  /** Only for 'percent': 1–100. */
  percent: number | null;
}

/**
 * The amount refunded for a booking under the policy, in paise (never below zero). 'minus_fee' keeps the
 * booking fee as the Payment Summary showed it: the convenience fee and the IGST on it.
 */
export function refundAmountPaise(
  policy: RefundPolicy,
  booking: { totalAmountPaise: number; feeAmountPaise: number; igstAmountPaise: number },
): number {
  if (policy.rule === 'minus_fee') {
    return Math.max(0, booking.totalAmountPaise - booking.feeAmountPaise - booking.igstAmountPaise);
  }
  if (policy.rule === 'percent')
    return Math.floor((booking.totalAmountPaise * (policy.percent ?? 100)) / 100);
  return booking.totalAmountPaise;
}

/** One sentence for the event page and the booking, in the buyer's words. */
export function describeRefundPolicy(policy: RefundPolicy): string {
  const amount =
    policy.rule === 'minus_fee'
      ? 'a refund of the ticket price (the convenience fee is not refunded)'
      : policy.rule === 'percent'
        ? `a refund of ${policy.percent ?? 100}% of the amount paid`
        : 'a full refund';
  const until =
    policy.cutoffHours === 0
      ? 'until the show starts'
      : `up to ${policy.cutoffHours} ${policy.cutoffHours === 1 ? 'hour' : 'hours'} before the show`;
  return `Refundable tickets can be cancelled from My Bookings ${until}, for ${amount}.`;
}
