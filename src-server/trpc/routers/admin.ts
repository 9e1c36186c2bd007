import {
  AdminPageInput,
  AdminUnpublishInput,
  ConvenienceFeeCapInput,
} from '../../../shared/admin-schemas.ts';
import { retryEInvoiceSchema } from '../../../shared/e-invoicing-schemas.ts';
import { EventIdInput, GrantRoleInput, OrganiserRequestIdInput } from '../../../shared/organiser-schemas.ts';
import { publicLinkBase } from '../../../shared/public-links.ts';
import { PLATFORM_ISSUER } from '../../db/schema/invoices.ts';
import { getPlatformTotals } from '../../services/admin/get-platform-totals.ts';
import { listAllEvents } from '../../services/admin/list-all-events.ts';
import { listOrganisers } from '../../services/admin/list-organisers.ts';
import { releaseEventHold } from '../../services/admin/release-event-hold.ts';
import { unpublishAnyEvent } from '../../services/admin/unpublish-any-event.ts';
import { getPlatformEInvoicing, retryEInvoice } from '../../services/invoices/e-invoicing-setting.ts';
import { platformEInvoicingOf } from '../../services/invoices/platform-gst.ts';
import { decideOrganiserRequest } from '../../services/organiser-requests/decide-organiser-request.ts';
import { listOrganiserRequests } from '../../services/organiser-requests/list-organiser-requests.ts';
import {
  readConvenienceFeeCap,
  setConvenienceFeeCap,
} from '../../services/platform-settings/convenience-fee-cap.ts';
import { grantOrganiserRole } from '../../services/roles/grant-organiser-role.ts';
import type { Context } from '../context.ts';
import { adminProcedure, router } from '../init.ts';

/** The admin page (/admin): organiser requests and rights, every organiser's events, platform totals. */
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

  /** Organisers, one page at a time; revoking is `setOrganiser` with role 'none'. */
  organisers: adminProcedure
    .input(AdminPageInput)
    .query(({ ctx, input }) => listOrganisers(ctx.db, input.page)),

  /** Every organiser's events, one page at a time. */
  events: adminProcedure
    .input(AdminPageInput)
    .query(({ ctx, input }) => listAllEvents(ctx.db, input.page, ctx.deps.clock.now())),

  /** Takes any published event off sale and holds it there until an admin releases it; its owner is e-mailed. */
  unpublishEvent: adminProcedure.input(AdminUnpublishInput).mutation(({ ctx, input }) =>
    unpublishAnyEvent(ctx.db, { ...input, adminId: ctx.user.id }, ctx.deps.clock.now(), {
      base: publicLinkBase(ctx.deps.env.PUBLIC_URL, ctx.request.origin),
    }),
  ),

  /** Releases an admin's hold: the event's team may publish it again; its owner is e-mailed. */
  releaseEvent: adminProcedure.input(EventIdInput).mutation(({ ctx, input }) =>
    releaseEventHold(ctx.db, input.eventId, ctx.deps.clock.now(), {
      base: publicLinkBase(ctx.deps.env.PUBLIC_URL, ctx.request.origin),
    }),
  ),

  totals: adminProcedure.query(({ ctx }) => getPlatformTotals(ctx.db)),

  /**
   * The platform's own e-invoicing (PLATFORM_E_INVOICING_SINCE): whether it applies, and the fee invoices
   * and fee credit notes the IRP has not registered yet, with its messages.
   */
  eInvoicing: adminProcedure.query(({ ctx }) =>
    getPlatformEInvoicing(ctx.db, platformEInvoicingOf(ctx.deps.env), ctx.deps.eInvoiceProvider !== null),
  ),

  /** Sends one of the platform's failed e-invoices (or credit notes) again; an organiser's is NOT_FOUND. */
  retryEInvoice: adminProcedure
    .input(retryEInvoiceSchema)
    .mutation(({ ctx, input }) => retryEInvoice(ctx.db, PLATFORM_ISSUER, input, ctx.deps.clock.now())),

  /** The most any event's convenience fee may be, in percent. */
  convenienceFeeCap: adminProcedure.query(async ({ ctx }) => ({
    percent: await readConvenienceFeeCap(ctx.db),
  })),

  /** Caps every event's convenience fee; events above the new cap are lowered to it. */
  setConvenienceFeeCap: adminProcedure
    .input(ConvenienceFeeCapInput)
    .mutation(({ ctx, input }) =>
      setConvenienceFeeCap(ctx.db, { percent: input.percent, adminId: ctx.user.id }, ctx.deps.clock.now()),
    ),
});

function decide(ctx: Context & { user: { id: string } }, requestId: string, approve: boolean) {
  return decideOrganiserRequest(ctx.db, { requestId, approve, adminId: ctx.user.id }, ctx.deps.clock.now(), {
    base: publicLinkBase(ctx.deps.env.PUBLIC_URL, ctx.request.origin),
  });
}
