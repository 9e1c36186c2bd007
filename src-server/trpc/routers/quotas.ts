import { CreateQuotaInput, RemoveQuotaInput, UpdateQuotaInput } from '../../../shared/quota-schemas.ts';
import { createQuota } from '../../services/quotas/create-quota.ts';
import { listQuotas } from '../../services/quotas/list-quotas.ts';
import { removeQuota } from '../../services/quotas/remove-quota.ts';
import { updateQuota } from '../../services/quotas/update-quota.ts';
import { eventProcedure } from '../init.ts';

/**
 * An event's shared capacities (quotas, issue 40), part of the console router (`console.quotas`, …):
 * the event editor's, so `edit` (owner, co-organisers, admins), never gate staff. Listing shows sold,
 * held and left, which the editor's ticket types show too.
 */
export const quotaProcedures = {
  quotas: eventProcedure('edit').query(({ ctx }) => listQuotas(ctx.db, ctx.event.id)),

  createQuota: eventProcedure('edit')
    .input(CreateQuotaInput)
    .mutation(({ ctx, input }) => createQuota(ctx.db, ctx.event.id, input.quota, ctx.deps.clock.now())),

  updateQuota: eventProcedure('edit')
    .input(UpdateQuotaInput)
    .mutation(({ ctx, input }) =>
      updateQuota(ctx.db, ctx.event.id, input.quotaId, input.quota, ctx.deps.clock.now()),
    ),

  removeQuota: eventProcedure('edit')
    .input(RemoveQuotaInput)
    .mutation(({ ctx, input }) => removeQuota(ctx.db, ctx.event.id, input.quotaId)),
};
