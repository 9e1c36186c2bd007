import {
  EventByIdInput,
  EventHomeInput,
  EventListInput,
  EventPageInput,
  EventSearchInput,
  EventSearchPageInput,
  EventSuggestInput,
} from '../../../shared/catalog-schemas.ts';
import type { Db } from '../../db/client.ts';
import { tooManyRequests } from '../../errors.ts';
import { readEventPage, readHomeRows } from '../../services/catalog/event-pages.ts';
import { listEvents, readEvent, searchEvents } from '../../services/catalog/events.ts';
import { searchEventPage, suggestEvents } from '../../services/catalog/search-events.ts';
import { memoryRateLimit } from '../../services/rate-limits/memory-rate-limit.ts';
import type { RateLimit } from '../../services/rate-limits/rate-limits.ts';
import { publicProcedure, router } from '../init.ts';

/**
 * Searches one client may have computed (answers from the micro-cache do not count): typeahead asks
 * once per pause in typing, so this is far above a person and far below a script.
 */
export const SEARCHES_PER_CLIENT: RateLimit = { name: 'search', max: 60, windowMs: 10_000 };
export const TOO_MANY_SEARCHES = 'Too many searches. Please wait a few seconds and try again.';

// One limiter per database, i.e. per app (tests run several apps in one process).
const limiters = new WeakMap<object, ReturnType<typeof memoryRateLimit>>();
function allowSearch(db: Db, ip: string, now: Date): void {
  let limiter = limiters.get(db);
  if (!limiter) {
    limiter = memoryRateLimit(SEARCHES_PER_CLIENT);
    limiters.set(db, limiter);
  }
  if (!limiter.take(ip, now.getTime())) throw tooManyRequests(TOO_MANY_SEARCHES);
}

export const eventsRouter = router({
  /**
   * The first LIST_MAX upcoming events, soonest first; optionally by city (name or alias), category and
   * India days. Kept for existing clients; the storefront pages with `events.page`.
   */
  list: publicProcedure
    .input(EventListInput)
    .query(({ ctx, input }) => listEvents(ctx.db, ctx.deps.clock.now(), input ?? {})),
  /** One page of upcoming events (one city, every other city or all; a category; India days). */
  page: publicProcedure
    .input(EventPageInput)
    .query(({ ctx, input }) => readEventPage(ctx.db, ctx.deps.clock.now(), input)),
  /** The home page's first paint: the chosen city's row (or its nearest cities'), and everyone else's. */
  home: publicProcedure
    .input(EventHomeInput)
    .query(({ ctx, input }) => readHomeRows(ctx.db, ctx.deps.clock.now(), input.city)),
  /** The best matches for the text (name, artists, venue, city or alias, category or synonym). */
  search: publicProcedure.input(EventSearchInput).query(({ ctx, input }) => {
    const now = ctx.deps.clock.now();
    allowSearch(ctx.db, ctx.request.ip, now);
    return searchEvents(ctx.db, now, input.q);
  }),
  /** Ranked search results, one page at a time. */
  searchPage: publicProcedure.input(EventSearchPageInput).query(({ ctx, input }) => {
    const now = ctx.deps.clock.now();
    allowSearch(ctx.db, ctx.request.ip, now);
    return searchEventPage(ctx.db, now, input);
  }),
  /** Typeahead under the search box: a few events, and the categories and cities the text names. */
  suggest: publicProcedure.input(EventSuggestInput).query(({ ctx, input }) => {
    const now = ctx.deps.clock.now();
    allowSearch(ctx.db, ctx.request.ip, now);
    return suggestEvents(ctx.db, now, input.q);
  }),
  /** One event in the nested shape (dates → slots → ticket types), or NOT_FOUND 'Event not found'. */
  byId: publicProcedure
    .input(EventByIdInput)
    .query(({ ctx, input }) =>
      readEvent(ctx.db, input.id, { accessCode: input.code, now: ctx.deps.clock.now() }),
    ),
});
