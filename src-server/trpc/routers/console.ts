import {
  InvitationIdInput,
  InvitationTokenInput,
  InviteTeamMemberInput,
  TeamMemberIdInput,
} from '../../../shared/organiser-schemas.ts';
import { publicLinkBase } from '../../../shared/public-links.ts';
import { getConsoleAccess } from '../../services/console/get-console-access.ts';
import { listMyEvents } from '../../services/console/list-my-events.ts';
import { acceptInvitation } from '../../services/team/accept-invitation.ts';
import { cancelInvitation } from '../../services/team/cancel-invitation.ts';
import { describeInvitation } from '../../services/team/find-invitation.ts';
import { inviteTeamMember } from '../../services/team/invite-team-member.ts';
import { listEventTeam } from '../../services/team/list-event-team.ts';
import { removeTeamMember } from '../../services/team/remove-team-member.ts';
import { eventProcedure, protectedProcedure, publicProcedure, router } from '../init.ts';
import { addOnProcedures } from './add-ons.ts';
import { discountProcedures } from './discounts.ts';
import { questionProcedures } from './questions.ts';
import { quotaProcedures } from './quotas.ts';
import { salesProcedures } from './sales.ts';

/** The organiser console (/organiser): the caller's events and each event's team. */
export const consoleRouter = router({
  /** The caller's role and team count, or null when signed out: where 'Event' should lead. */
  access: publicProcedure.query(({ ctx }) => (ctx.user ? getConsoleAccess(ctx.db, ctx.user.id) : null)),

  /** The console home: events the caller owns or is on the team of (empty for everyone else). */
  myEvents: protectedProcedure.query(({ ctx }) => listMyEvents(ctx.db, ctx.user.id, ctx.deps.clock.now())),

  /** One event's header in the console, with the caller's role on it. */
  event: eventProcedure('view').query(({ ctx }) => ({
    id: ctx.event.id,
    name: ctx.event.name,
    city: ctx.event.city,
    myRole: ctx.eventRole,
  })),

  team: eventProcedure('viewTeam').query(({ ctx }) =>
    listEventTeam(ctx.db, ctx.event.id, ctx.deps.clock.now()),
  ),

  invite: eventProcedure('manageTeam')
    .input(InviteTeamMemberInput)
    .mutation(({ ctx, input }) =>
      inviteTeamMember(
        ctx.db,
        { event: ctx.event, email: input.email, role: input.role, invitedBy: ctx.user },
        ctx.deps.clock.now(),
        { base: publicLinkBase(ctx.deps.env.PUBLIC_URL, ctx.request.origin) },
      ),
    ),

  removeMember: eventProcedure('manageTeam')
    .input(TeamMemberIdInput)
    .mutation(({ ctx, input }) =>
      removeTeamMember(ctx.db, ctx.event.id, input.memberUserId, ctx.deps.clock.now()),
    ),

  cancelInvitation: eventProcedure('manageTeam')
    .input(InvitationIdInput)
    .mutation(({ ctx, input }) =>
      cancelInvitation(ctx.db, ctx.event.id, input.invitationId, ctx.deps.clock.now()),
    ),

  /** The mailed link's page: which event and role (the token is the credential). */
  invitation: publicProcedure
    .input(InvitationTokenInput)
    .query(({ ctx, input }) => describeInvitation(ctx.db, input.token, ctx.deps.clock.now())),

  acceptInvitation: protectedProcedure
    .input(InvitationTokenInput)
    .mutation(({ ctx, input }) => acceptInvitation(ctx.db, input.token, ctx.user, ctx.deps.clock.now())),

  ...salesProcedures,
  ...discountProcedures,
  ...quotaProcedures,
  ...questionProcedures,
  ...addOnProcedures,
});
