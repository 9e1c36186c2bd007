import { OrganiserRequestInput } from '../../../shared/organiser-schemas.ts';
import { publicLinkBase } from '../../../shared/public-links.ts';
import { getMyOrganiserRequest } from '../../services/organiser-requests/get-my-organiser-request.ts';
import { submitOrganiserRequest } from '../../services/organiser-requests/submit-organiser-request.ts';
import { protectedProcedure, router } from '../init.ts';

/** "List your Event": a signed-in person asks to become an organiser. */
export const organiserRequestsRouter = router({
  submit: protectedProcedure.input(OrganiserRequestInput).mutation(({ ctx, input }) =>
    submitOrganiserRequest(ctx.db, ctx.user.id, input, ctx.deps.clock.now(), {
      base: publicLinkBase(ctx.deps.env.PUBLIC_URL, ctx.request.origin),
      supportEmail: ctx.deps.env.SUPPORT_EMAIL,
    }),
  ),

  /** The caller's latest request and its status, or null. */
  mine: protectedProcedure.query(({ ctx }) => getMyOrganiserRequest(ctx.db, ctx.user.id)),
});
