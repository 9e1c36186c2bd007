import { z } from 'zod';
import { EVENT_CATEGORIES } from './categories.ts';
import { DISCOUNT_REFUSALS, MAX_CODE_LENGTH } from './discount-schemas.ts';

/** An India calendar day, 'yyyy-MM-dd'. */
const indiaDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Please pick a valid date');

/** events.list: everything upcoming, optionally in one city, one category and a range of India days. */
export const EventListInput = z
  .object({
    /** A city name or alias ('Bangalore' finds Bengaluru's events); unknown names match nothing. */
    city: z.string().trim().min(1).max(80).optional(),
    category: z.enum(EVENT_CATEGORIES).optional(),
    from: indiaDay.optional(),
    to: indiaDay.optional(),
  })
  .optional();
export type EventListInput = z.infer<typeof EventListInput>;

/** Events per page of a catalogue list (home rows, explore, category and city pages) and of search. */
export const CATALOG_PAGE_SIZE = 24;
export const CATALOG_PAGE_MAX = 48;
/**
 * Lists count their events up to this many and then say "100+", and search ranks this many results: the
 * count is bounded work too. At 1,000 the count was the largest part of a first page that grows with the
 * catalogue (69 µs of a category's 120 at 10,000 events; 13 µs at 100; docs/benchmarks.md).
 */
export const CATALOG_COUNT_CAP = 100;

/** An opaque position in a list, from the page before (`nextCursor`). */
const cursor = z.string().trim().min(1).max(400);

/**
 * events.page: one page of upcoming events, soonest first. `city` keeps to one city; `exceptCity` is
 * every other city (the home page's 'You may also like'); neither is "All cities".
 */
export const EventPageInput = z.object({
  city: z.string().trim().min(1).max(80).optional(),
  exceptCity: z.string().trim().min(1).max(80).optional(),
  category: z.enum(EVENT_CATEGORIES).optional(),
  from: indiaDay.optional(),
  to: indiaDay.optional(),
  cursor: cursor.optional(),
  limit: z.number().int().min(1).max(CATALOG_PAGE_MAX).optional(),
});
export type EventPageInput = z.infer<typeof EventPageInput>;

/** events.home: everything the home page's first paint needs for the chosen city, in one answer. */
export const EventHomeInput = z.object({ city: z.string().trim().min(1).max(80) });
export type EventHomeInput = z.infer<typeof EventHomeInput>;

export const SEARCH_QUERY_MAX = 100;

/** events.search: the top bar's box; matches event name, venue, city (or alias) and artist. */
export const EventSearchInput = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Type something to search for')
    .max(SEARCH_QUERY_MAX, `Search for at most ${SEARCH_QUERY_MAX} characters`),
});
export type EventSearchInput = z.infer<typeof EventSearchInput>;

/** events.searchPage: ranked results, one page at a time. */
export const EventSearchPageInput = EventSearchInput.extend({
  cursor: cursor.optional(),
  limit: z.number().int().min(1).max(CATALOG_PAGE_MAX).optional(),
});
export type EventSearchPageInput = z.infer<typeof EventSearchPageInput>;

/** events.suggest: typeahead under the search box. */
export const EventSuggestInput = z.object({ q: z.string().trim().min(1).max(SEARCH_QUERY_MAX) });
export type EventSuggestInput = z.infer<typeof EventSuggestInput>;

/**
 * A buyer's access code (`?code=` on the event link, the ticket selection's code field), which shows
 * the hidden ticket types it unlocks (ADR 0038); an unknown one shows none.
 */
const accessCode = z.string().trim().max(MAX_CODE_LENGTH, DISCOUNT_REFUSALS.unknown).optional();

export const EventByIdInput = z.object({ id: z.string().trim().min(1).max(100), code: accessCode });
/** The ticket selection: the event's live dates → slots → types, hidden ones only with their code. */
export const TicketOptionsInput = z.object({ eventId: z.string().min(1).max(200), code: accessCode });
export type EventByIdInput = z.infer<typeof EventByIdInput>;

/** Contact Us (spec §2). Mobile is optional; when given it must be an Indian mobile number. */
export const ContactMessageInput = z.object({
  firstName: z
    .string()
    .trim()
    .min(1, 'First name is required')
    .max(100, 'First name must be at most 100 characters'),
  lastName: z.string().trim().max(100, 'Last name must be at most 100 characters').default(''),
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    // abort: the shape's regex backtracks on a long input.
    .max(254, { message: 'Email must be at most 254 characters', abort: true })
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Please enter a valid email address'),
  mobile: z
    .string()
    .trim()
    .max(10, { message: 'Please enter a valid 10-digit mobile number', abort: true })
    .regex(/^(?:[6-9]\d{9})?$/, 'Please enter a valid 10-digit mobile number')
    .default(''),
  message: z
    .string()
    .trim()
    .min(1, 'Message is required')
    .max(2000, 'Message must be at most 2000 characters'),
});
export type ContactMessageInput = z.input<typeof ContactMessageInput>;
