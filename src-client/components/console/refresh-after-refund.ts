import type { trpc } from '../../lib/trpc.ts';

/**
 * After the organiser refunds or cancels a booking: the booking, and the event's Sales page figures
 * (dashboard and payout statement, every month) that the refund changes. Queries stay fresh for 30 s
 * (lib/trpc.ts), so without this the Sales page, seen just before, showed the figures from before.
 */
export function refreshAfterRefund(
  utils: ReturnType<typeof trpc.useUtils>,
  input: { eventId: string; bookingId: string },
) {
  return Promise.all([
    utils.eventBookings.booking.invalidate(input),
    utils.console.salesDashboard.invalidate({ eventId: input.eventId }),
    utils.console.payoutStatement.invalidate({ eventId: input.eventId }),
  ]);
}
