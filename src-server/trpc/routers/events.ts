import { EventByIdInput, EventListInput, EventSearchInput } from '../../../shared/catalog-schemas.ts';
import { getEvent, listEvents, searchEvents } from '../../services/catalog/events.ts';
import { publicProcedure, router } from '../init.ts';

export const eventsRouter = router({
  /** Upcoming events, soonest first; optionally by city (name or alias), category and India days. */
  list: publicProcedure
    .input(EventListInput)
    .query(({ ctx, input }) => listEvents(ctx.db, ctx.deps.clock.now(), input ?? {})),
  /** The top bar's search: name, venue, city (or alias) and artist. */
  search: publicProcedure
    .input(EventSearchInput)
    .query(({ ctx, input }) => searchEvents(ctx.db, ctx.deps.clock.now(), input.q)),
  /** One event in the nested shape (dates → slots → ticket types), or NOT_FOUND 'Event not found'. */
  byId: publicProcedure.input(EventByIdInput).query(({ ctx, input }) => getEvent(ctx.db, input.id)),
});
