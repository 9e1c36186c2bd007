import { CHECKOUT_INCOMPLETE_HEADING } from '../../../shared/checkout-schemas.ts';
import { HOARDING_MESSAGES } from '../../../shared/hoarding-messages.ts';
import { WAITING_ROOM_MESSAGES } from '../../../shared/waiting-room.ts';
import { serverRefusalOf } from '../../lib/server-field-errors.ts';

/** `notice`: what the buyer did themselves (closed the payment window), said without 'Payment Error:'. */
/** `verify`: Proceed was refused for an unverified e-mail address; the banner offers to resend the link. */
export type Banner = {
  message: string;
  items?: string[];
  tone?: 'error' | 'notice';
  verify?: boolean;
  /** The event's waiting room admits buyers in turn: a link to it beside the message. */
  waitingRoom?: boolean;
};

/** §8 banner texts for a Proceed that did not get as far as the payment window. */
export function startErrorBanner(err: unknown): Banner {
  const data = (err as { data?: { code?: string; httpStatus?: number } } | null)?.data;
  const message = (err as Error | null)?.message ?? '';
  if (!data?.httpStatus) return { message: 'Failed to create order. Please check your connection.' };
  if (data.code === 'UNAUTHORIZED') return { message: 'Please log in to continue with your booking.' };
  // Not a payment problem: a step the buyer can take, with the action beside it.
  if (message === HOARDING_MESSAGES.emailNotVerified) return { message, verify: true, tone: 'notice' };
  if (message === WAITING_ROOM_MESSAGES.passRequired) return { message, waitingRoom: true, tone: 'notice' };
  if (data.code === 'BAD_REQUEST') {
    const items = [...new Set(Object.values(serverRefusalOf(err).fields))];
    if (items.length > 0) return { message: CHECKOUT_INCOMPLETE_HEADING, items };
  }
  if (data.code === 'CONFLICT' || data.code === 'NOT_FOUND') return { message: `Booking Error: ${message}` };
  return { message: message || 'Failed to create order. Please try again.' };
}
