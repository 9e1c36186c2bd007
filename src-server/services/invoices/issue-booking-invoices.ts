import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  admissionKindOf,
  admissionSacOf,
  computeTaxLine,
  EXEMPT_WORDING,
  exemptionAppliesTo,
  intraStateSplit,
  isTaxedKind,
  NIL_RATED_WORDING,
  PLATFORM_FEE_SAC,
  sumTaxLines,
  type TaxLine,
  ticketTaxRateOf,
} from '../../../shared/gst.ts';
import { isInvoicingProfileComplete } from '../../../shared/gst-schemas.ts';
import {
  feePlaceOfSupply,
  placeOfSupplyOfEvent,
  stateOfGstin,
  stateTaxHeadOf,
} from '../../../shared/gst-states.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import { admissionTaxOf, IGST_RATE } from '../../../shared/pricing.ts';
import type { IndianState } from '../../../shared/states.ts';
import { changes, row, runSync, type Steps } from '../../db/engine/steps.ts';
import { type Tables, tablesOf } from '../../db/engine/tables.ts';
import type { bookings } from '../../db/schema/bookings.ts';
import { type InvoiceLine, PLATFORM_ISSUER } from '../../db/schema/invoices.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { addOnInvoiceLinesSteps } from '../add-ons/add-on-invoice-lines.ts';
import { addOnsPaiseOfBookingSteps } from '../add-ons/add-on-stock.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { documentNumberSteps } from './document-numbers.ts';
import type { PlatformGst } from './platform-gst.ts';

export const FEE_NOT_TAXED_NOTE = (feePaise: string) =>
  `The convenience fee of ${feePaise} is the platform’s own service and is not part of this invoice; the platform is not registered for GST, so the fee was not charged with tax and no GST invoice is issued for it.`;
/** An unregistered supplier's supply is not exempt: no GST is charged because they are not registered. */
export const UNREGISTERED_NOTE = 'GST not charged: supplier not registered under GST.';

export interface BuyerGst {
  buyerGstin?: string;
  buyerLegalName?: string;
  /** Kept at Proceed only when the invoice must show it (shared/recipient-address.ts). */
  buyerAddress?: string;
}

/**
 * Issues a confirmed booking's invoices, inside the transaction that confirms it (payments/confirm.ts):
 * the organiser's admission invoice (or bill of supply when they have no GSTIN), and the platform's
 * convenience-fee invoice when the platform's GST details are configured. Numbers come from the
 * issuer's counter in this same transaction. A booking whose organiser's invoice details are not complete
 * (no profile, or one carried over from the organiser request without an address) gets no admission
 * invoice now: it is issued when the profile is completed (issue-owed-invoices.ts). Returns the ids.
 */
export function issueBookingInvoices(
  tx: DbOrTx,
  platform: PlatformGst | null,
  bookingId: string,
  buyer: BuyerGst,
  now: Date,
): string[] {
  return runSync(issueBookingInvoicesSteps(tx, platform, bookingId, buyer, now));
}

/** `issueBookingInvoices` written once for both engines (ADR 0045): a step of the confirmation. */
export function* issueBookingInvoicesSteps(
  tx: DbOrTx,
  platform: PlatformGst | null,
  bookingId: string,
  buyer: BuyerGst,
  now: Date,
): Steps<string[]> {
  const { invoices } = tablesOf(tx);
  const { booking, event } = yield* loadBookingSteps(tx, bookingId);
  const ids: string[] = [];
  const admission = yield* admissionInvoiceSteps(tx, platform, booking, event, buyer, now);
  if (admission) ids.push(admission);
  const buyerParty = buyerPartyOf(booking, buyer);
  const issuedAt = now.toISOString();
  if (platform && event && booking.feeAmountPaise + booking.igstAmountPaise > 0) {
    const fee = feeInvoiceTax(platform.state, booking.feeAmountPaise, booking.igstAmountPaise, {
      state: booking.userState,
      buyerGstin: buyerParty.buyerGstin,
    });
    const line: InvoiceLine = {
      description: `Convenience fee: booking ${bookingId}`,
      sac: PLATFORM_FEE_SAC,
      quantity: 1,
      unitPricePaise: booking.feeAmountPaise,
      personsPerTicket: 1,
      ...fee.split,
    };
    const { number, financialYear } = yield* documentNumberSteps(
      tx as WriteTx,
      PLATFORM_ISSUER,
      'platform_invoice',
      now,
    );
    const id = randomUUID();
    yield* changes(
      tx.insert(invoices).values({
        id,
        bookingId,
        kind: 'platform_fee',
        documentType: 'tax_invoice',
        issuer: PLATFORM_ISSUER,
        eventId: event.id,
        number,
        financialYear,
        issuedAt,
        supplierName: platform.legalName,
        supplierAddress: platform.address,
        supplierState: platform.state,
        supplierGstin: platform.gstin,
        ...buyerParty,
        placeOfSupply: fee.placeOfSupply,
        stateTaxHead: fee.stateTaxHead,
        taxInclusive: false,
        lines: [line],
        taxableValuePaise: line.taxableValuePaise,
        cgstPaise: line.cgstPaise,
        sgstPaise: line.sgstPaise,
        igstPaise: line.igstPaise,
        totalPaise: line.totalPaise,
        notes: [],
      }),
    );
    ids.push(id);
  }
  return ids;
}

/**
 * How the platform's fee invoice levies the fee's GST. The fee and its 18 % were priced at Proceed, before
 * the buyer's state was known (shared/pricing.ts); the invoice only splits the tax. The place of supply
 * is the GSTIN's state for a registered buyer, else the state given at checkout (IGST Act s.12(2)); the
 * checkout and the mail name the heads by the same rule (shared/pricing.ts feeTaxSplitFor). Intra-state
 * the heads are equal: an odd paisa of tax moves to the taxable value (shared/gst.ts intraStateSplit).
 * Used at confirmation and when a GSTIN added later re-issues the invoice (add-buyer-gstin.ts).
 */
export function feeInvoiceTax(
  platformState: string,
  feePaise: number,
  taxPaise: number,
  buyer: { state: string; buyerGstin: string | null },
): { placeOfSupply: string; stateTaxHead: 'UTGST' | null; split: Omit<TaxLine, 'taxPaise'> } {
  const placeOfSupply = feePlaceOfSupply(buyer);
  const intra = platformState === placeOfSupply;
  const { taxPaise: _sum, ...split } = intra
    ? intraStateSplit(IGST_RATE, feePaise, taxPaise)
    : {
        kind: 'inter' as const,
        taxRatePercent: IGST_RATE,
        taxableValuePaise: feePaise,
        cgstPaise: 0,
        sgstPaise: 0,
        igstPaise: taxPaise,
        taxPaise,
        totalPaise: feePaise + taxPaise,
      };
  return { placeOfSupply, stateTaxHead: intra ? utgstOrNull(placeOfSupply) : null, split };
}

/**
 * The organiser's admission invoice of one booking alone: what issueBookingInvoices issues at
 * confirmation, and what the organiser is owed later when they complete their profile. Returns its id,
 * or null when the organiser's invoice details are not complete.
 */
export function* issueAdmissionInvoiceSteps(
  tx: DbOrTx,
  platform: PlatformGst | null,
  bookingId: string,
  buyer: BuyerGst,
  now: Date,
): Steps<string | null> {
  const { booking, event } = yield* loadBookingSteps(tx, bookingId);
  return yield* admissionInvoiceSteps(tx, platform, booking, event, buyer, now);
}

type Booking = typeof bookings.$inferSelect;
type BookedEvent = BookedEventRow | undefined;

function* loadBookingSteps(tx: DbOrTx, bookingId: string) {
  const { bookings, events } = tablesOf(tx);
  const booking = yield* row(tx.select().from(bookings).where(eq(bookings.id, bookingId)));
  if (!booking) throw new Error(`booking ${bookingId} not found`);
  const event = yield* row(eventOfBooking(tx, events, booking.eventId));
  return { booking, event };
}

function eventOfBooking(tx: DbOrTx, events: Tables['events'], eventId: string) {
  return tx
    .select({
      id: events.id,
      city: events.city,
      venueState: events.venueState,
      category: events.category,
      admissionKind: events.admissionKind,
      ownerId: events.ownerId,
      taxRate: events.taxRate,
      taxInclusive: events.taxInclusive,
    })
    .from(events)
    .where(eq(events.id, eventId));
}

type BookedEventRow = NonNullable<ReturnType<ReturnType<typeof eventOfBooking>['get']>>;

/** 'UTGST' for a union territory without a legislature, else null (SGST). */
function utgstOrNull(placeOfSupply: string): 'UTGST' | null {
  return stateTaxHeadOf(placeOfSupply) === 'UTGST' ? 'UTGST' : null;
}

function buyerPartyOf(booking: Booking, buyer: BuyerGst) {
  const buyerGstin = buyer.buyerGstin || null;
  return {
    buyerName: booking.userName,
    // A registered recipient's state is their GSTIN's (its first two digits), whatever was typed as the
    // state at checkout: the two cannot disagree on the invoice.
    buyerState: (buyerGstin && stateOfGstin(buyerGstin)) || booking.userState,
    buyerGstin,
    buyerLegalName: buyerGstin ? buyer.buyerLegalName || null : null,
    buyerAddress: buyer.buyerAddress?.trim() || null,
  };
}

function* admissionInvoiceSteps(
  tx: DbOrTx,
  platform: PlatformGst | null,
  booking: Booking,
  event: BookedEvent,
  buyer: BuyerGst,
  now: Date,
): Steps<string | null> {
  const { invoices, organiserProfiles } = tablesOf(tx);
  const profile = event?.ownerId
    ? yield* row(tx.select().from(organiserProfiles).where(eq(organiserProfiles.userId, event.ownerId)))
    : undefined;
  if (!event || !profile || !isInvoicingProfileComplete(profile)) return null;
  const bookingId = booking.id;
  const issuedAt = now.toISOString();
  const buyerParty = buyerPartyOf(booking, buyer);
  // Where the event is held (IGST Act s.12(6)): the venue's state, else the city's; the profile's state
  // only for a city not on the list.
  const placeOfSupply: IndianState = placeOfSupplyOfEvent(event) ?? (profile.state as IndianState);
  // Entry 81 exempts ₹500 or less per person only for the kinds it lists, and the kind decides the
  // SAC of the admission lines (issue 36).
  const admissionKind = admissionKindOf(event.category, event.admissionKind);
  const registered = profile.gstin !== null;
  // GST added on top at checkout is invoiced at the rate and exemption the hold was priced with (kept on
  // the booking): the organiser may change the event's rate, the profile's default or the event's kind
  // while the buyer pays, and the invoice must still add up to what was paid (ADR 0033). A booking
  // made before they were kept (null), or one whose prices included GST, is invoiced at the settings of
  // the day: with prices that include GST the total is what was paid whatever the rate.
  const quotedRate = registered ? booking.admissionTaxRatePercent : null;
  const exemptionApplies =
    quotedRate !== null && booking.admissionExemptionApplies !== null
      ? booking.admissionExemptionApplies
      : exemptionAppliesTo(admissionKind);
  // Else the rate of the day, as the sale was quoted unless it changed meanwhile: a sale is refused
  // while its rate is out of the schedule (checkout-taxes.ts ticketSaleGstProblemSteps), so only a
  // payment already under way when it left the schedule is invoiced at it.
  const rate = quotedRate ?? (registered ? ticketTaxRateOf(event.taxRate, profile.defaultTaxRate) : 0);
  const taxLines = (taxInclusive: boolean) =>
    booking.ticketTypes.map((l) => ({
      l,
      tax: computeTaxLine({
        pricePaise: l.pricePaise,
        personsPerTicket: l.personAllowedPerTicket,
        quantity: l.quantity,
        discountPerTicketPaise: l.discountPerTicketPaise,
        taxRatePercent: rate,
        taxInclusive,
        supplierState: profile.state as IndianState,
        placeOfSupply,
        exemptionApplies,
      }),
    }));
  // A quoted rate says the prices were tax-exclusive. Without one, what was paid decides, not today's
  // profile (it may have changed since Proceed): GST added on top of tax-exclusive prices at checkout
  // (checkout/checkout-taxes.ts) is whatever the booking's total holds beyond the tickets, the add-ons,
  // the fee and the fee's GST (shared/pricing.ts admissionTaxOf). With none added the prices were paid
  // as set, tax included (ADR 0024), unless every line is exempt under an exclusive profile (nothing to add).
  // (The add-ons' sum is read only then: a quoted rate already answers.)
  const exclusiveTaxed = taxLines(false);
  const exclusive =
    quotedRate !== null ||
    admissionTaxOf({
      totalPaise: booking.totalAmountPaise,
      subtotalPaise: booking.subtotalAmountPaise,
      addOnsPaise: yield* addOnsPaiseOfBookingSteps(tx, bookingId),
      feePaise: booking.feeAmountPaise,
      igstPaise: booking.igstAmountPaise,
    }) > 0 ||
    (registered &&
      !(event.taxInclusive ?? profile.taxInclusive) &&
      exclusiveTaxed.every(({ tax }) => tax.taxPaise === 0));
  const taxed = exclusive ? exclusiveTaxed : taxLines(true);
  // Add-ons (ADR 0041) follow the tickets, each at its own rate and code.
  const addOns = yield* addOnInvoiceLinesSteps(tx, bookingId, {
    registered,
    supplierState: profile.state as IndianState,
    placeOfSupply,
    eventName: booking.eventName,
  });
  const totals = sumTaxLines([...taxed, ...addOns].map(({ tax }) => tax));
  // A stored line keeps the tax split, not its sum (the invoice's totals have that).
  const lines: InvoiceLine[] = taxed.map(({ l, tax: { taxPaise: _sum, ...tax } }) => ({
    description: `${booking.eventName}: ${l.name}`,
    sac: admissionSacOf(admissionKind),
    quantity: l.quantity,
    unitPricePaise: l.pricePaise,
    personsPerTicket: l.personAllowedPerTicket,
    ...(l.discountPerTicketPaise
      ? { discountPerTicketPaise: l.discountPerTicketPaise, discountCode: booking.discountCode ?? undefined }
      : {}),
    ...tax,
  }));
  lines.push(...addOns.map(({ line }) => line));
  const notes: string[] = [];
  if (!registered) notes.push(UNREGISTERED_NOTE);
  else {
    // Each untaxed kind says why no GST is charged: entry 81 only for the admission it exempts, a 0 %
    // rate (an admission or an add-on) as nil-rated (issue 36).
    if (lines.some((l) => l.kind === 'exempt')) notes.push(EXEMPT_WORDING);
    if (lines.some((l) => l.kind === 'nil')) notes.push(NIL_RATED_WORDING);
  }
  const feeWithTax = booking.feeAmountPaise + booking.igstAmountPaise;
  if (!platform && feeWithTax > 0) notes.push(FEE_NOT_TAXED_NOTE(formatPaiseExact(feeWithTax)));
  // Rule 49: a wholly exempt supply (exempt or nil-rated, CGST Act s.2(47)), or any by a supplier not
  // registered, is documented by a bill of supply, numbered in its own series (BOS/…) so the tax
  // invoices' series stays consecutive on its own.
  const documentType =
    registered && lines.some((l) => isTaxedKind(l.kind)) ? 'tax_invoice' : 'bill_of_supply';
  const { number, financialYear } = yield* documentNumberSteps(
    tx as WriteTx,
    profile.userId,
    documentType === 'tax_invoice' ? 'invoice' : 'bill_of_supply',
    now,
  );
  const id = randomUUID();
  yield* changes(
    tx.insert(invoices).values({
      id,
      bookingId,
      kind: 'admission',
      documentType,
      issuer: profile.userId,
      eventId: event.id,
      number,
      financialYear,
      issuedAt,
      supplierName: profile.legalName,
      supplierAddress: profile.address,
      supplierState: profile.state,
      supplierGstin: profile.gstin,
      ...buyerParty,
      placeOfSupply,
      stateTaxHead: lines.some((l) => l.kind === 'intra') ? utgstOrNull(placeOfSupply) : null,
      taxInclusive: !exclusive,
      lines,
      taxableValuePaise: totals.taxableValuePaise,
      cgstPaise: totals.cgstPaise,
      sgstPaise: totals.sgstPaise,
      igstPaise: totals.igstPaise,
      totalPaise: totals.totalPaise,
      notes,
    }),
  );
  return id;
}
