import { CreateAddOnInput, UpdateAddOnInput } from '../../../shared/add-on-schemas.ts';
import { listAddOns } from '../../services/add-ons/list-add-ons.ts';
import { createAddOn, updateAddOn } from '../../services/add-ons/save-add-on.ts';
import { eventProcedure } from '../init.ts';

/**
 * An event's add-ons (issue 40, ADR 0041), part of the console router (`console.addOns`, …): the event
 * editor's, so `edit` (owner, co-organisers, admins), never gate staff.
 */
export const addOnProcedures = {
  addOns: eventProcedure('edit').query(({ ctx }) => listAddOns(ctx.db, ctx.event.id)),

  createAddOn: eventProcedure('edit')
    .input(CreateAddOnInput)
    .mutation(({ ctx, input }) => createAddOn(ctx.db, ctx.event.id, input.addOn, ctx.deps.clock.now())),

  updateAddOn: eventProcedure('edit')
    .input(UpdateAddOnInput)
    .mutation(({ ctx, input }) =>
      updateAddOn(ctx.db, ctx.event.id, input.addOnId, input.addOn, ctx.deps.clock.now()),
    ),
};
