import {
  confirmPaymentSchema,
  releaseHoldSchema,
  startCheckoutSchema,
} from '../../../shared/checkout-schemas.ts';
import { QuoteDiscountInput } from '../../../shared/discount-schemas.ts';
import { quoteDiscount } from '../../services/checkout/quote-discount.ts';
import { startCheckout } from '../../services/checkout/start-checkout.ts';
import { releaseHold } from '../../services/inventory/holds.ts';
import { confirmCheckoutPayment } from '../../services/payments/confirm.ts';
import { paymentGatewayOf } from '../../services/payments/gateway-of.ts';
import { releaseAndPassOn } from '../../services/waitlist/pass-on.ts';
import { protectedProcedure, publicProcedure, router } from '../init.ts';

export const paymentsRouter = router({
  /** Which checkout window the browser opens: Razorpay's script or the offline simulator's dialog. */
  config: publicProcedure.query(({ ctx }) => {
    const gateway = paymentGatewayOf(ctx.deps);
    return { gateway: gateway.name, keyId: gateway.keyId };
  }),

  /** Proceed: hold the seats, price them on the server and open a gateway order. */
  start: protectedProcedure
    .input(startCheckoutSchema)
    .mutation(({ ctx, input }) => startCheckout(ctx.deps, ctx.user.id, input, ctx.request.ip)),

  /** The checkout's "Apply code": the selection priced with a discount code, or why it is refused. */
  quoteDiscount: protectedProcedure
    .input(QuoteDiscountInput)
    .query(({ ctx, input }) => quoteDiscount(ctx.deps, ctx.user.id, input)),

  /** The payment window's success result: verified against the stored order, then confirmed once. */
  confirm: protectedProcedure
    .input(confirmPaymentSchema)
    .mutation(({ ctx, input }) => confirmCheckoutPayment(ctx.deps, ctx.user.id, input)),

  /** Dismissal, failure or the session time-out: the seats go back on sale now (the waiting list first). */
  release: protectedProcedure.input(releaseHoldSchema).mutation(async ({ ctx, input }) => ({
    released: await releaseHold(
      ctx.db,
      input.holdId,
      input.reason,
      ctx.deps.clock.now(),
      ctx.user.id,
      releaseAndPassOn(ctx.deps),
    ),
  })),
});
