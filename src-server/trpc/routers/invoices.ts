import { eInvoicingSettingSchema, retryEInvoiceSchema } from '../../../shared/e-invoicing-schemas.ts';
import {
  addBuyerGstinSchema,
  bookingInvoiceSchema,
  eventInvoicesSchema,
  eventTaxRateSchema,
  organiserProfileSchema,
} from '../../../shared/gst-schemas.ts';
import { addBuyerGstin } from '../../services/invoices/add-buyer-gstin.ts';
import { getEInvoicing, retryEInvoice, setEInvoicing } from '../../services/invoices/e-invoicing-setting.ts';
import { getOrganiserProfile, saveOrganiserProfile } from '../../services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../services/invoices/platform-gst.ts';
import { listEventInvoices, listOwnBookingInvoices } from '../../services/invoices/read-invoices.ts';
import { setEventTax } from '../../services/invoices/set-event-tax.ts';
import { eventProcedure, organiserProcedure, protectedProcedure, router } from '../init.ts';

/** GST (issue 16): the organiser's tax profile, an event's rate, and the invoices people may download. */
export const invoicesRouter = router({
  /** The caller's tax profile; null before it is saved. */
  profile: organiserProcedure.query(({ ctx }) => getOrganiserProfile(ctx.db, ctx.user.id)),

  saveProfile: organiserProcedure
    .input(organiserProfileSchema)
    .mutation(({ ctx, input }) =>
      saveOrganiserProfile(ctx.db, platformGstOf(ctx.deps.env), ctx.user.id, input, ctx.deps.clock.now()),
    ),

  /** E-invoicing: the caller's setting and their invoices not yet registered with the IRP. */
  eInvoicing: organiserProcedure.query(({ ctx }) =>
    getEInvoicing(ctx.db, ctx.user.id, ctx.deps.eInvoiceProvider !== null),
  ),

  setEInvoicing: organiserProcedure
    .input(eInvoicingSettingSchema)
    .mutation(({ ctx, input }) => setEInvoicing(ctx.db, ctx.user.id, input, ctx.deps.clock.now())),

  /** Sends one of the caller's own failed e-invoices again; another organiser's invoice is NOT_FOUND. */
  retryEInvoice: organiserProcedure
    .input(retryEInvoiceSchema)
    .mutation(({ ctx, input }) => retryEInvoice(ctx.db, ctx.user.id, input, ctx.deps.clock.now())),

  /**
   * The event editor's GST settings for this event: its rate (null: the profile's default), the venue's
   * state (the place of supply) and the kind of admission (issue 36).
   */
  setEventTaxRate: eventProcedure('edit')
    .input(eventTaxRateSchema)
    .mutation(({ ctx, input: { eventId: _id, ...settings } }) => setEventTax(ctx.db, ctx.event.id, settings)),

  /** My Bookings: the invoices of one of the caller's bookings. */
  forBooking: protectedProcedure
    .input(bookingInvoiceSchema)
    .query(({ ctx, input }) => listOwnBookingInvoices(ctx.db, ctx.user.id, input.bookingId)),

  /** The buyer adds a GSTIN later: the invoice is re-issued (credit note + new number) within its month. */
  addBuyerGstin: protectedProcedure
    .input(addBuyerGstinSchema)
    .mutation(({ ctx, input: { bookingId, ...buyer } }) =>
      addBuyerGstin(ctx.db, ctx.user.id, bookingId, buyer, ctx.deps.clock.now()),
    ),

  /** The organiser's order view: the event's invoices, to download. */
  forEvent: eventProcedure('viewSales')
    .input(eventInvoicesSchema)
    .query(({ ctx, input }) => listEventInvoices(ctx.db, ctx.event.id, input.bookings)),
});
