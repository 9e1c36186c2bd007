import { z } from 'zod';
import { EVENT_CATEGORIES } from './categories.ts';
import { findCity } from './cities.ts';
import { eventImageUrl } from './event-images.ts';
import { MAP_LINK_HELP, parseMapLink } from './map-links.ts';
import { MAX_CONVENIENCE_FEE_RATE, MAX_TICKETS_PER_TYPE } from './pricing.ts';
import { REFUND_RULES } from './refund-policy.ts';
import { MAX_STORED_INTEGER } from './stored-integer.ts';
import { maxTransfersPerBookingField, transfersAllowedField } from './transfer-schemas.ts';
import { WaitlistOfferMinutesField } from './waitlist-schemas.ts';

/** Only 'published' events reach buyers; the console sees all three. */
export const EVENT_STATUSES = ['draft', 'published', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const EDITOR_MESSAGES = {
  staleVersion: 'This event was changed by someone else. Reload to see their changes.',
  nameRequired: 'Event name is required',
  nameLong: 'Event name must be at most 120 characters',
  cityInvalid: 'Please choose a city from the list',
  textLong: (what: string, max: number) => `${what} must be at most ${max} characters`,
  mapLinkInvalid: MAP_LINK_HELP,
  ageInvalid: 'Age limit must be a whole number from 0 to 99',
  feeInvalid: `Convenience fee must be between 0 and ${MAX_CONVENIENCE_FEE_RATE} %`,
  maxPerBuyerInvalid: 'Tickets per buyer must be a whole number from 1 to 1,000',
  refundCutoffInvalid: 'Cancellation cut-off must be a whole number of hours from 0 to 720',
  refundPercentInvalid: 'Refund percentage must be a whole number from 1 to 100',
  dayInvalid: 'Please enter a date as YYYY-MM-DD',
  dayPast: 'This date is in the past',
  timeInvalid: 'Please enter a time as HH:MM',
  slotEndEqualsStart: 'End time must differ from start time',
  slotPast: 'This slot has already started',
  /** Two live slots at one start would sell the same hall twice and show buyers two identical times. */
  slotStartTaken: 'Another slot of this event already starts at this date and time. Change its time instead.',
  slotMoveToPast: 'The new date and time must be in the future',
  priceInvalid: 'Price must be between ₹0 and ₹10,00,000 with at most two decimals',
  capacityInvalid: 'Capacity must be a whole number from 1 to 1,00,000',
  maxPerOrderInvalid: `Per-order maximum must be a whole number from 1 to ${MAX_TICKETS_PER_TYPE}`,
  personsInvalid: 'Persons per ticket must be a whole number from 1 to 20',
  instantInvalid: 'Please enter a valid date and time',
  saleWindowOrder: 'Sales must close after they open',
  dateNotFound: 'Date not found',
  slotNotFound: 'Slot not found',
  ticketTypeNotFound: 'Ticket type not found',
  dateExists: 'This event already has that date',
  hasBookings: (what: string) => `This ${what} has bookings and cannot be deleted. Stop its sales instead.`,
  capacityBelowSold: (sold: number, held: number) =>
    `Capacity cannot be lower than the ${sold + held} tickets already sold or held (${sold} sold, ${held} held).`,
  notDraft: 'Only a draft can be published.',
  notPublished: 'Only a published event can be unpublished.',
  cannotPublish: 'This event cannot be published yet.',
  cancelledLocked: 'A cancelled event cannot be edited.',
  slotCancelled: 'This slot is cancelled.',
  /** Publishing an event an admin took off sale (issue 35): the hold is the admin's to lift. */
  adminHold:
    'An administrator took this event off sale. It can be published again only after an administrator releases it: ask through Contact Us.',
  /** Publishing an event whose owner's organiser rights were taken away (issue 35). */
  ownerNotOrganiser:
    'This event’s owner no longer has organiser rights, so it cannot be published. Ask an administrator.',
  /** A co-organiser cancelling a slot with bookings (issue 35): that refunds its buyers. */
  bookedSlotOwnersCall:
    'This slot has bookings: cancelling it refunds its buyers, which only the event’s owner can do.',
} as const;

const M = EDITOR_MESSAGES;

const shortText = (what: string, max: number) => z.string().trim().max(max, M.textLong(what, max));

/** An instant as the client sends it (UTC ISO-8601, from a form field read in India time). */
const instant = z.iso.datetime({ offset: true, message: M.instantInvalid });

/** What the buyer's event page shows about the event itself. */
export const EventDetailsFields = z.object({
  name: z.string().trim().min(1, M.nameRequired).max(120, M.nameLong),
  category: z.enum(EVENT_CATEGORIES, { message: 'Please choose a category' }),
  city: z
    .string()
    .trim()
    .min(1, M.cityInvalid)
    .max(60, M.cityInvalid)
    .refine((c) => findCity(c)?.name === c, M.cityInvalid),
  eventLocationText: shortText('Venue', 300),
  googleMapsEmbedLink: z
    .string()
    .trim()
    .max(2000, M.textLong('Map link', 2000))
    .refine((v) => v === '' || parseMapLink(v) !== null, M.mapLinkInvalid),
  description: shortText('Description', 5000),
  ageRestrictions: z
    .number({ message: M.ageInvalid })
    .int(M.ageInvalid)
    .min(0, M.ageInvalid)
    .max(99, M.ageInvalid)
    .nullable(),
  language: shortText('Language', 60),
  termsAndConditions: z
    .array(shortText('Each term', 500).min(1, 'A term cannot be empty'))
    .max(30, 'At most 30 terms'),
  artists: z
    .array(
      z.object({
        name: shortText('Artist name', 120).min(1, 'Artist name is required'),
        /** Left out: an artist kept by name keeps their photo. */
        imageUrl: eventImageUrl('artist').nullable().optional(),
      }),
    )
    .max(30, 'At most 30 artists'),
  platformFeeRate: z
    .number({ message: M.feeInvalid })
    .min(0, M.feeInvalid)
    .max(MAX_CONVENIENCE_FEE_RATE, M.feeInvalid)
    .nullable(),
  /**
   * Uploaded pictures (shared/event-images.ts): only URLs this installation made, in the size saved for
   * that kind. Left out, the event keeps the picture it has; null removes it.
   */
  posterUrl: eventImageUrl('poster').nullable().optional(),
  bannerUrl: eventImageUrl('banner').nullable().optional(),
  /**
   * The most tickets one buyer may have for the event, held and booked together (issue 19); null: only
   * each ticket type's per-order maximum. Optional so an edit that leaves it out keeps the stored value.
   */
  maxTicketsPerBuyer: z
    .number({ message: M.maxPerBuyerInvalid })
    .int(M.maxPerBuyerInvalid)
    .min(1, M.maxPerBuyerInvalid)
    .max(1000, M.maxPerBuyerInvalid)
    .nullable()
    .optional(),
  /**
   * Buyer cancellation (issue 16): hours before the slot when cancelling closes, and how much goes back.
   * Optional so an edit that leaves them out keeps the stored policy.
   */
  refundCutoffHours: z
    .number({ message: M.refundCutoffInvalid })
    .int(M.refundCutoffInvalid)
    .min(0, M.refundCutoffInvalid)
    .max(720, M.refundCutoffInvalid)
    .optional(),
  refundRule: z.enum(REFUND_RULES).optional(),
  refundPercent: z
    .number({ message: M.refundPercentInvalid })
    .int(M.refundPercentInvalid)
    .min(1, M.refundPercentInvalid)
    .max(100, M.refundPercentInvalid)
    .nullable()
    .optional(),
  /** Ticket transfers (issue 16, ADR 0025). Optional so an edit that leaves them out keeps the stored values. */
  transfersAllowed: transfersAllowedField.optional(),
  maxTransfersPerBooking: maxTransfersPerBookingField.optional(),
  /** How long a waiting-list offer holds its seats (issue 19). Optional: left out, the stored value stays. */
  waitlistOfferMinutes: WaitlistOfferMinutesField.optional(),
});
export type EventDetailsFields = z.infer<typeof EventDetailsFields>;

export const CreateEventInput = EventDetailsFields;

const Versioned = z.object({
  eventId: z.string().min(1).max(100),
  /** The version the edit was based on; a newer one in the database refuses the edit. */
  version: z.number().int().min(1).max(MAX_STORED_INTEGER, 'Unknown version of this event: reload the page'),
});

export const UpdateEventDetailsInput = Versioned.extend(EventDetailsFields.shape);

export const VersionedEventInput = Versioned;

const indiaDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, M.dayInvalid);
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, M.timeInvalid);

/** A calendar day in India, 'yyyy-MM-dd'; the server refuses days already past. */
export const AddEventDateInput = Versioned.extend({ day: indiaDay });
export const RemoveEventDateInput = Versioned.extend({ dateId: z.string().min(1).max(100) });

/**
 * A slot's times on its date, in India time ('HH:MM'). An end earlier than the start is on the next day
 * (a show running past midnight, 20:00–02:00), so a slot lasts less than 24 hours; the form says so.
 */
export const SlotFields = z
  .object({ startTime: clockTime, endTime: clockTime })
  .refine((s) => s.endTime !== s.startTime, { message: M.slotEndEqualsStart, path: ['endTime'] });
export const AddSlotInput = Versioned.extend({
  dateId: z.string().min(1).max(100),
  startTime: clockTime,
  endTime: clockTime,
}).refine((s) => s.endTime !== s.startTime, { message: M.slotEndEqualsStart, path: ['endTime'] });
/** Whether a slot with these India times ends on the day after its date. */
export const slotEndsNextDay = (s: { startTime: string; endTime: string }) => s.endTime < s.startTime;
export const RemoveSlotInput = Versioned.extend({ slotId: z.string().min(1).max(100) });
/** Cancels a slot: every confirmed booking is refunded. */
export const CancelSlotInput = Versioned.extend({ slotId: z.string().min(1).max(100) });
/**
 * The editor's "Change date or time" form: the slot's (new) calendar day and times, India time. An end
 * before the start is the next day, as when adding a slot.
 */
export const SlotMoveFields = z
  .object({ day: indiaDay, startTime: clockTime, endTime: clockTime })
  .refine((s) => s.endTime !== s.startTime, { message: M.slotEndEqualsStart, path: ['endTime'] });
/**
 * Moves a slot to new times, on its date or, with `day`, on another one (an existing date of the event or
 * a new one); every ticket holder is e-mailed old and new, and a move to another day lets every holder
 * cancel for a full refund until the new start (services/event-editor/reschedule-slot.ts).
 */
export const UpdateSlotTimeInput = Versioned.extend({
  slotId: z.string().min(1).max(100),
  day: indiaDay.optional(),
  startTime: clockTime,
  endTime: clockTime,
}).refine((s) => s.endTime !== s.startTime, { message: M.slotEndEqualsStart, path: ['endTime'] });
/** What cancelling would refund: one slot, or the whole event without `slotId`. */
export const CancellationPreviewInput = z.object({
  eventId: z.string().min(1).max(100),
  slotId: z.string().min(1).max(100).optional(),
});

const wholeNumber = (message: string, min: number, max: number) =>
  z.number({ message }).int(message).min(min, message).max(max, message);

/** A ticket type as the form edits it: price in rupees (stored as paise), sale window as instants. */
export const TicketTypeFields = z
  .object({
    name: z.string().trim().min(1, 'Ticket name is required').max(80, M.textLong('Ticket name', 80)),
    priceRupees: z
      .number({ message: M.priceInvalid })
      .min(0, M.priceInvalid)
      .max(1_000_000, M.priceInvalid)
      .refine((r) => Math.abs(Math.round(r * 100) - r * 100) < 1e-6, M.priceInvalid),
    totalTickets: wholeNumber(M.capacityInvalid, 1, 100_000),
    maxPerOrder: wholeNumber(M.maxPerOrderInvalid, 1, MAX_TICKETS_PER_TYPE),
    personAllowedPerTicket: wholeNumber(M.personsInvalid, 1, 20),
    description: shortText('Ticket description', 500),
    benefits: z
      .array(shortText('Each benefit', 200).min(1, 'A benefit cannot be empty'))
      .max(20, 'At most 20 benefits'),
    isRefundable: z.boolean(),
    /** False stops sales without deleting anything. */
    onSale: z.boolean(),
    /**
     * Shown and sold only to buyers with an access code that unlocks it (issue 40, ADR 0038). Left out:
     * unchanged (a new type is not hidden), so a form that does not know of it never reveals one.
     */
    isHidden: z.boolean().optional(),
    /**
     * One ticket (own QR, name, check-in) per attendee (ADR 0046); applies to bookings made from then on.
     * Left out: unchanged.
     */
    perAttendeeTickets: z.boolean().optional(),
    saleOpensAt: instant.nullable(),
    saleClosesAt: instant.nullable(),
  })
  .refine(
    (t) => !t.saleOpensAt || !t.saleClosesAt || Date.parse(t.saleClosesAt) > Date.parse(t.saleOpensAt),
    {
      message: M.saleWindowOrder,
      path: ['saleClosesAt'],
    },
  );
export type TicketTypeFields = z.infer<typeof TicketTypeFields>;

export const AddTicketTypeInput = z.object({
  ...Versioned.shape,
  slotId: z.string().min(1).max(100),
  ticket: TicketTypeFields,
});
export const UpdateTicketTypeInput = z.object({
  ...Versioned.shape,
  ticketTypeId: z.string().min(1).max(100),
  ticket: TicketTypeFields,
});
export const RemoveTicketTypeInput = Versioned.extend({ ticketTypeId: z.string().min(1).max(100) });
/** Copies one slot's ticket types to every other slot of the event that lacks a type of that name. */
export const CopyTicketTypesInput = Versioned.extend({ fromSlotId: z.string().min(1).max(100) });
