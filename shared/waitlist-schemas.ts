import { z } from 'zod';
import { ticketDetailsSchema } from './checkout-schemas.ts';
import { perOrderMaxMessage } from './per-order-max.ts';
import { MAX_TICKETS_PER_TYPE } from './pricing.ts';

/** The organiser's choice of how long an offer holds its seats (issue 19), and the default. */
export const WAITLIST_OFFER_MINUTES = { min: 5, max: 1440, default: 30 } as const;

/** Every refusal and notice, in the words the pages show. */
export const WAITLIST_MESSAGES = {
  notSoldOut: 'This ticket type is not sold out: you can book it now.',
  offSale: 'This ticket type is not on sale.',
  alreadyOnList: 'You are already on the waiting list for this show.',
  notFound: 'Waiting-list entry not found',
  offerOver: 'This offer has ended: its seats have passed to the next person on the waiting list.',
  notLive: 'You are no longer on this waiting list.',
  offerPending:
    'You have seats offered to you from the waiting list for this show. Pay for them from your offer, or leave the waiting list first.',
  offerMinutes: `Offer time must be between ${WAITLIST_OFFER_MINUTES.min} and ${WAITLIST_OFFER_MINUTES.max} minutes`,
} as const;

const id = (what: string) => z.string().trim().min(1, `${what} is required`).max(200, `${what} is invalid`);

/** "Join waiting list" on a sold-out ticket type: how many tickets and whose details the booking carries. */
export const JoinWaitlistInput = z.object({
  ticketTypeId: id('Ticket type'),
  quantity: z
    .number({ message: 'Quantity is required' })
    .int('Quantity must be a whole number')
    .min(1, 'Choose at least 1 ticket')
    .max(MAX_TICKETS_PER_TYPE, perOrderMaxMessage(MAX_TICKETS_PER_TYPE)),
  details: ticketDetailsSchema,
});
export type JoinWaitlistInput = z.input<typeof JoinWaitlistInput>;

/** One of the caller's entries (leave, the offer page, paying the offer). */
export const WaitlistEntryInput = z.object({ entryId: id('Entry') });
export type WaitlistEntryInput = z.input<typeof WaitlistEntryInput>;

/** The event editor's offer time. */
export const WaitlistOfferMinutesField = z
  .number({ message: WAITLIST_MESSAGES.offerMinutes })
  .int(WAITLIST_MESSAGES.offerMinutes)
  .min(WAITLIST_OFFER_MINUTES.min, WAITLIST_MESSAGES.offerMinutes)
  .max(WAITLIST_OFFER_MINUTES.max, WAITLIST_MESSAGES.offerMinutes);
