import { ContactMessageInput } from '../../../shared/catalog-schemas.ts';
import { saveContactMessage } from '../../services/contact/messages.ts';
import { publicProcedure, router } from '../init.ts';

export const contactRouter = router({
  /** Stores a Contact Us message. */
  send: publicProcedure.input(ContactMessageInput).mutation(({ ctx, input }) =>
    saveContactMessage(ctx.db, input, {
      now: ctx.deps.clock.now(),
      supportEmail: ctx.deps.env.SUPPORT_EMAIL,
      clientIp: ctx.request.ip,
      allPerHour: ctx.deps.env.CONTACT_MESSAGES_PER_HOUR,
    }),
  ),
});
