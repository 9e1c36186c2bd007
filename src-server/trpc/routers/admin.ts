import { GrantRoleInput, OrganiserRequestIdInput } from '../../../shared/organiser-schemas.ts';
import { linkBase } from '../../services/accounts/emails.ts';
import { decideOrganiserRequest } from '../../services/organiser-requests/decide-organiser-request.ts';
import { listOrganiserRequests } from '../../services/organiser-requests/list-organiser-requests.ts';
import { grantOrganiserRole } from '../../services/roles/grant-organiser-role.ts';
import type { Context } from '../context.ts';
import { adminProcedure, router } from '../init.ts';

/** The admin page (/admin): organiser requests and organiser rights. */
export const adminRouter = router({
  organiserRequests: adminProcedure.query(({ ctx }) => listOrganiserRequests(ctx.db)),

  approveRequest: adminProcedure
    .input(OrganiserRequestIdInput)
    .mutation(({ ctx, input }) => decide(ctx, input.requestId, true)),

  declineRequest: adminProcedure
    .input(OrganiserRequestIdInput)
    .mutation(({ ctx, input }) => decide(ctx, input.requestId, false)),

  /** Grants organiser rights directly (or takes them away), by e-mail address. */
  setOrganiser: adminProcedure
    .input(GrantRoleInput)
    .mutation(({ ctx, input }) =>
      grantOrganiserRole(ctx.db, { ...input, adminId: ctx.user.id }, ctx.deps.clock.now()),
    ),
});

function decide(ctx: Context & { user: { id: string } }, requestId: string, approve: boolean) {
  return decideOrganiserRequest(ctx.db, { requestId, approve, adminId: ctx.user.id }, ctx.deps.clock.now(), {
    base: linkBase(ctx.deps.env.PUBLIC_URL, ctx.origin),
  });
}
