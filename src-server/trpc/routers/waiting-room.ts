import { JoinWaitingRoomInput } from '../../../shared/waiting-room.ts';
import { joinWaitingRoom } from '../../services/waiting-room/join-waiting-room.ts';
import { protectedProcedure, router } from '../init.ts';

/** The buyer's side of an event's waiting room; status checks are a plain GET (http/waiting-room.ts). */
export const waitingRoomRouter = router({
  /** Takes (or finds) the account's one place; answers the queue token the page keeps. */
  join: protectedProcedure
    .input(JoinWaitingRoomInput)
    .mutation(({ ctx, input }) => joinWaitingRoom(ctx.deps, ctx.user.id, input.eventId)),
});
