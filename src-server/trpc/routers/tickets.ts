import { TicketOptionsInput } from '../../../shared/catalog-schemas.ts';
import { ticketOptions } from '../../services/checkout/ticket-options.ts';
import { publicProcedure, router } from '../init.ts';

export const ticketsRouter = router({
  /** Ticket selection and checkout: the event header and its dates → slots → ticket types, live availability. */
  options: publicProcedure
    .input(TicketOptionsInput)
    .query(({ ctx, input }) => ticketOptions(ctx.deps, input.eventId, input.code)),
});
