import { DEFAULT_PLATFORM_FEE_RATE, IGST_RATE, MAX_CONVENIENCE_FEE_RATE } from './pricing.ts';

/**
 * What selling on Jalsa costs an organiser and who keeps what (issue 35), said on the onboarding path
 * (List your Event, Organiser profile) in the same terms as the Sales page's money panel
 * (src-server/services/sales/event-money.ts).
 */
export const SELLING_COSTS: readonly string[] = [
  'Listing events is free: nothing is taken from your ticket prices.',
  `Buyers pay a convenience fee on top of the ticket price: ${DEFAULT_PLATFORM_FEE_RATE}% of it unless you set another rate for an event (at most ${MAX_CONVENIENCE_FEE_RATE}%, or an admin's lower cap), plus ${IGST_RATE}% GST on the fee where the platform charges it. The fee and its GST are the platform's, not yours, and are not on your invoice.`,
  'You are paid the ticket revenue: the ticket prices buyers paid, GST in them included (as a GST-registered organiser you pay that GST to the government), less what is refunded of them. A refund that returns the fee too returns it from the platform’s share.',
  'Your Sales page shows it the same way: ticket revenue, the GST in it, the platform’s fees, refunds, and what is payable to you.',
];
