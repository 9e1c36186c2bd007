import { JoinWaitlistInput, WaitlistEntryInput } from '../../../shared/waitlist-schemas.ts';
import { joinWaitlist } from '../../services/waitlist/join-waitlist.ts';
import { leaveWaitlist } from '../../services/waitlist/leave-waitlist.ts';
import { listMyWaitlist } from '../../services/waitlist/my-waitlist.ts';
import { describeOffer } from '../../services/waitlist/offer.ts';
import { payOffer } from '../../services/waitlist/pay-offer.ts';
import { protectedProcedure, router } from '../init.ts';

/** The waiting list after sell-out (issue 19, docs/decisions/0027-waiting-list.md): the buyer's side. */
export const waitlistRouter = router({
  /** "Join waiting list" on a sold-out ticket type. */
  join: protectedProcedure
    .input(JoinWaitlistInput)
    .mutation(({ ctx, input }) => joinWaitlist(ctx.db, ctx.user.id, input, ctx.deps.clock.now())),

  /** My Bookings' "Waiting list": the caller's live entries with their place or offer. */
  mine: protectedProcedure.query(({ ctx }) => listMyWaitlist(ctx.db, ctx.user.id)),

  /** "Leave": an offer's seats pass to the next in line. */
  leave: protectedProcedure
    .input(WaitlistEntryInput)
    .mutation(({ ctx, input }) => leaveWaitlist(ctx.deps, ctx.user.id, input.entryId, ctx.deps.clock.now())),

  /** The offer page (the mail's link): the held tickets and amounts. Only the entry's account. */
  offer: protectedProcedure
    .input(WaitlistEntryInput)
    .query(({ ctx, input }) => describeOffer(ctx.db, ctx.user.id, input, ctx.deps.clock.now())),

  /** Pay on the offer page: a gateway order for the offer's hold, while the offer is live. */
  payOffer: protectedProcedure
    .input(WaitlistEntryInput)
    .mutation(({ ctx, input }) => payOffer(ctx.deps, ctx.user.id, input.entryId)),
});
