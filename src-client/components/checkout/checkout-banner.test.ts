import { describe, expect, it } from 'vitest';
import { CHECKOUT_INCOMPLETE_HEADING } from '../../../shared/checkout-schemas.ts';
import { HOARDING_MESSAGES } from '../../../shared/hoarding-messages.ts';
import { WAITING_ROOM_MESSAGES } from '../../../shared/waiting-room.ts';
import { startErrorBanner } from './checkout-banner.ts';

/** An error shaped as tRPC's client gives it: a message and the server's code and HTTP status. */
const serverError = (
  code: string,
  httpStatus: number,
  message: string,
  fieldErrors?: Record<string, string>,
) => Object.assign(new Error(message), { data: { code, httpStatus, fieldErrors } });

describe('startErrorBanner', () => {
  it('says the connection failed when no server answered', () => {
    expect(startErrorBanner(new TypeError('Failed to fetch'))).toEqual({
      message: 'Failed to create order. Please check your connection.',
    });
  });

  it('offers the step the buyer can take: resend the verification, or go to the waiting room', () => {
    expect(startErrorBanner(serverError('FORBIDDEN', 403, HOARDING_MESSAGES.emailNotVerified))).toMatchObject(
      {
        verify: true,
        tone: 'notice',
      },
    );
    expect(startErrorBanner(serverError('FORBIDDEN', 403, WAITING_ROOM_MESSAGES.passRequired))).toMatchObject(
      { waitingRoom: true, tone: 'notice' },
    );
  });

  it('names a sold-out or vanished selection as a booking error', () => {
    expect(startErrorBanner(serverError('CONFLICT', 409, 'Only 2 left'))).toEqual({
      message: 'Booking Error: Only 2 left',
    });
  });

  it('lists the fields the server refused once each, under the incomplete heading', () => {
    const err = serverError('BAD_REQUEST', 400, 'Invalid input', {
      'ticketDetails.phone': 'Enter a 10-digit mobile number',
      phone: 'Enter a 10-digit mobile number',
    });
    expect(startErrorBanner(err)).toEqual({
      message: CHECKOUT_INCOMPLETE_HEADING,
      items: ['Enter a 10-digit mobile number'],
    });
  });
});
