import { z } from 'zod';
import { emailField, mobileField, nameField } from './auth-schemas.ts';

/** The most transfers an organiser may allow per booking, and the default (issue 16, ADR 0025). */
export const MAX_TRANSFERS_PER_BOOKING = 5;
export const DEFAULT_TRANSFERS_PER_BOOKING = 1;

const bookingId = z.string().trim().min(1, 'No bookingId provided in URL.').max(200);

/**
 * "Transfer ticket" on My Bookings: who receives it. The mobile is optional; when given it is an Indian
 * mobile as people type it, kept as its 10 digits (the checkout's parser).
 */
export const TransferRecipientFields = z.object({
  name: nameField,
  email: emailField,
  mobile: mobileField,
});
export type TransferRecipientFields = z.input<typeof TransferRecipientFields>;

export const StartTransferInput = TransferRecipientFields.extend({ bookingId });
export type StartTransferInput = z.input<typeof StartTransferInput>;

/** The mailed link's token (the credential: only its hash is stored). */
export const TransferTokenInput = z.object({
  token: z
    .string()
    .trim()
    .min(20, 'This transfer link is invalid.')
    .max(200, 'This transfer link is invalid.'),
});

/** Every refusal, in the words My Bookings and the transfer page show. */
export const TRANSFER_MESSAGES = {
  cancelled: 'This booking is cancelled, so it cannot be transferred.',
  showCancelled: 'This show has been cancelled by the organiser, so the booking cannot be transferred.',
  checkedIn: 'Someone has already checked in with this booking, so it cannot be transferred.',
  over: 'This show is over, so the booking cannot be transferred.',
  switchedOff: 'The organiser does not allow ticket transfers for this event.',
  limitReached: 'This booking has been transferred as many times as the organiser allows.',
  pending: 'This booking is already waiting to be accepted by someone. Cancel that transfer first.',
  ownEmail: 'That is your own email address. Enter the email of the person you are giving the ticket to.',
  noPending: 'There is no transfer of this booking waiting to be accepted.',
  linkInvalid: 'This transfer link is invalid.',
  linkCancelled: 'The sender cancelled this transfer, so it can no longer be accepted.',
  linkUsed: 'This transfer has already been accepted.',
  otherEmail: (email: string) =>
    `This ticket was sent to ${email}. Sign in with that address to accept it; you are signed in with another one.`,
} as const;

/** Organiser's event editor: whether buyers may give bookings away, and how many times per booking. */
export const transfersAllowedField = z.boolean({ message: 'Choose whether tickets can be transferred' });
export const maxTransfersPerBookingField = z
  .number({ message: `Enter a whole number from 1 to ${MAX_TRANSFERS_PER_BOOKING}` })
  .int(`Enter a whole number from 1 to ${MAX_TRANSFERS_PER_BOOKING}`)
  .min(1, `Enter a whole number from 1 to ${MAX_TRANSFERS_PER_BOOKING}`)
  .max(MAX_TRANSFERS_PER_BOOKING, `Enter a whole number from 1 to ${MAX_TRANSFERS_PER_BOOKING}`);
