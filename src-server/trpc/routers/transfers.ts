import { BookingIdInput } from '../../../shared/bookings-schemas.ts';
import { publicLinkBase } from '../../../shared/public-links.ts';
import { StartTransferInput, TransferTokenInput } from '../../../shared/transfer-schemas.ts';
import { acceptTransfer } from '../../services/transfers/accept-transfer.ts';
import { cancelTransfer } from '../../services/transfers/cancel-transfer.ts';
import { describeTransfer } from '../../services/transfers/find-transfer.ts';
import { listSentTransfers } from '../../services/transfers/list-sent-transfers.ts';
import { startTransfer } from '../../services/transfers/start-transfer.ts';
import { transferStatusOf } from '../../services/transfers/transfer-status.ts';
import { protectedProcedure, publicProcedure, router } from '../init.ts';

/** Ticket transfers (issue 16, docs/decisions/0025-ticket-transfers.md). */
export const transfersRouter = router({
  /** Under one of the caller's bookings: a waiting transfer, "Transfer ticket", or why not. */
  status: protectedProcedure
    .input(BookingIdInput)
    .query(({ ctx, input }) => transferStatusOf(ctx.db, ctx.user.id, input.bookingId, ctx.deps.clock.now())),

  /** The owner offers the booking to someone by name and e-mail (and mobile); they get a link. */
  start: protectedProcedure.input(StartTransferInput).mutation(({ ctx, input }) =>
    startTransfer(ctx.db, ctx.user, input, ctx.deps.clock.now(), {
      base: publicLinkBase(ctx.deps.env.PUBLIC_URL, ctx.request.origin),
    }),
  ),

  /** The sender takes back a transfer not accepted yet. */
  cancel: protectedProcedure
    .input(BookingIdInput)
    .mutation(({ ctx, input }) => cancelTransfer(ctx.db, ctx.user.id, input.bookingId, ctx.deps.clock.now())),

  /** Bookings the caller gave away: My Bookings shows them as "Transferred". */
  sent: protectedProcedure.query(({ ctx }) => listSentTransfers(ctx.db, ctx.user.id)),

  /** The mailed link's page (the token is the credential). */
  byToken: publicProcedure
    .input(TransferTokenInput)
    .query(({ ctx, input }) => describeTransfer(ctx.db, input.token, ctx.user ?? null)),

  /** Only the account with the address the sender gave may accept. */
  accept: protectedProcedure
    .input(TransferTokenInput)
    .mutation(({ ctx, input }) => acceptTransfer(ctx.db, input.token, ctx.user, ctx.deps.clock.now())),
});
