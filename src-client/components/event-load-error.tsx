import type { ApiError } from '../lib/trpc.ts';
import { LoadFailed, NoticeText } from './status-screens.tsx';

/**
 * Ticket selection and checkout when their event does not load (spec §4): 'Event not found' for an
 * unknown event, else 'Failed to load event' with Try Again, as the event page and My Bookings offer.
 */
export function EventLoadError({ error }: { error: ApiError }) {
  if (error.data?.code === 'NOT_FOUND') return <NoticeText text="Event not found" />;
  return <LoadFailed message="Failed to load event" />;
}
