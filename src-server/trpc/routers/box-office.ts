import {
  IssueCompInput,
  LookUpOrdersInput,
  RecordDoorSaleInput,
} from '../../../shared/box-office-schemas.ts';
import { lookUpOrders } from '../../services/box-office/look-up-orders.ts';
import { recordBoxOfficeSale } from '../../services/box-office/record-box-office-sale.ts';
import { eventProcedure, router } from '../init.ts';

/**
 * The event's box office (issue 40, ADR 0042): comps, sales at the door and the look-up the desk needs.
 * `boxOffice`: the owner, co-organisers, admins and the event's box-office team members.
 */
export const boxOfficeRouter = router({
  issueComp: eventProcedure('boxOffice')
    .input(IssueCompInput)
    .mutation(({ ctx, input }) =>
      recordBoxOfficeSale(ctx.deps, ctx.event.id, ctx.user.id, { kind: 'comp', input }),
    ),

  recordDoorSale: eventProcedure('boxOffice')
    .input(RecordDoorSaleInput)
    .mutation(({ ctx, input }) =>
      recordBoxOfficeSale(ctx.deps, ctx.event.id, ctx.user.id, { kind: 'door', input }),
    ),

  lookUpOrders: eventProcedure('boxOffice')
    .input(LookUpOrdersInput)
    .query(({ ctx, input }) => lookUpOrders(ctx.db, ctx.event.id, input.query)),
});
