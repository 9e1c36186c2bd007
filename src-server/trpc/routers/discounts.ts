import {
  CreateDiscountCodeInput,
  SetDiscountCodeActiveInput,
  UpdateDiscountCodeInput,
} from '../../../shared/discount-schemas.ts';
import { createDiscountCode } from '../../services/discounts/create-discount-code.ts';
import { listDiscountCodes } from '../../services/discounts/list-discount-codes.ts';
import { setDiscountCodeActive } from '../../services/discounts/set-discount-code-active.ts';
import { updateDiscountCode } from '../../services/discounts/update-discount-code.ts';
import { eventProcedure } from '../init.ts';

/**
 * An event's discount codes, part of the console router (`console.discountCodes`, …). Listing them
 * shows sales figures (`viewSales`); creating, changing and deactivating them is editing the event's
 * prices (`edit`): owner, co-organisers and admins, never gate staff (issue 40).
 */
export const discountProcedures = {
  discountCodes: eventProcedure('viewSales').query(({ ctx }) => listDiscountCodes(ctx.db, ctx.event.id)),

  createDiscountCode: eventProcedure('edit')
    .input(CreateDiscountCodeInput)
    .mutation(({ ctx, input }) => createDiscountCode(ctx.db, ctx.event.id, input.code, ctx.deps.clock.now())),

  updateDiscountCode: eventProcedure('edit')
    .input(UpdateDiscountCodeInput)
    .mutation(({ ctx, input }) =>
      updateDiscountCode(ctx.db, ctx.event.id, input.discountCodeId, input.code, ctx.deps.clock.now()),
    ),

  setDiscountCodeActive: eventProcedure('edit')
    .input(SetDiscountCodeActiveInput)
    .mutation(({ ctx, input }) =>
      setDiscountCodeActive(ctx.db, ctx.event.id, input.discountCodeId, input.isActive, ctx.deps.clock.now()),
    ),
};
