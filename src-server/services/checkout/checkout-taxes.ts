import { eq } from 'drizzle-orm';
import { admissionKindOf, exemptionAppliesTo, isRateInForce, ticketTaxRateOf } from '../../../shared/gst.ts';
import type { TicketSaleGstProblem } from '../../../shared/gst-schemas.ts';
import { placeOfSupplyOfEvent, venueStateMissing } from '../../../shared/gst-states.ts';
import { type CheckoutTaxes, IGST_RATE } from '../../../shared/pricing.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import { textParam } from '../../db/unpeeked-params.ts';
import type { Env } from '../../env.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { platformGstOf } from '../invoices/platform-gst.ts';

/**
 * How one event's checkout is taxed, decided here and nowhere else (issue 16, ADR 0024):
 * - GST on the convenience fee only when the platform is registered (PLATFORM_GSTIN and the rest):
 *   without a registration it may not collect tax, so the fee is charged and shown without it;
 * - admission GST on top of the ticket prices only when the organiser is registered and their profile
 *   says prices are tax-exclusive (the event's own choice, else the profile's: pricesPlusGst), at the event's rate (else the profile's default). Inclusive prices
 *   (the usual case) are charged as set. That tax is the invoice's own (shared/gst.ts): exempt only for
 *   the kinds entry 81 lists, and intra-state (the venue in the organiser's state) rounded per head.
 * - the fee's heads are named by the platform's state and the buyer's (shared/pricing.ts feeTaxSplitFor).
 * The ticket options carry the result so the checkout previews exactly what Proceed charges.
 */
export function checkoutTaxesOf(db: DbOrTx, env: Env, eventId: string): CheckoutTaxes {
  return taxesOf(env, taxesLookup(db).get({ eventId }));
}

/** `checkoutTaxesOf` written once for both engines (ADR 0045): a step of the waiting list's offer. */
export function* checkoutTaxesSteps(db: DbOrTx, env: Env, eventId: string): Steps<CheckoutTaxes> {
  return taxesOf(env, yield* row(taxesLookup(db), { eventId }));
}

/** The admission half of an event's taxes: what the organiser's invoice needs, with no platform settings. */
export type AdmissionTaxes = Omit<CheckoutTaxes, 'feeTaxRatePercent' | 'feeSupplierState'>;

/**
 * How the organiser's invoice will tax one event's tickets: the waiting list's join weighs Rule 46's
 * ₹50,000 on it (join-waitlist.ts), as Proceed does on `checkoutTaxesSteps`.
 */
export function* admissionTaxesSteps(db: DbOrTx, eventId: string): Steps<AdmissionTaxes> {
  return admissionTaxesOf(yield* row(taxesLookup(db), { eventId }));
}

function taxesOf(env: Env, row: TaxesRow | undefined): CheckoutTaxes {
  const platform = platformGstOf(env);
  return {
    feeTaxRatePercent: platform ? IGST_RATE : 0,
    ...admissionTaxesOf(row),
    feeSupplierState: platform?.state ?? null,
  };
}

function admissionTaxesOf(row: TaxesRow | undefined): AdmissionTaxes {
  const exclusive = row !== undefined && pricesPlusGst(row);
  return {
    admissionTaxRatePercent: exclusive ? ticketTaxRateOf(row.taxRate, row.defaultTaxRate) : null,
    // The invoice's rate whether or not GST is on top (issue-booking-invoices.ts): Rule 46's threshold
    // is weighed on the taxable value, which an inclusive price holds inside it.
    admissionInvoiceRatePercent:
      row !== undefined && row.gstin !== null ? ticketTaxRateOf(row.taxRate, row.defaultTaxRate) : null,
    admissionExemptionApplies: row
      ? exemptionAppliesTo(admissionKindOf(row.category, row.admissionKind))
      : true,
    admissionIntraState: row ? (placeOfSupplyOfEvent(row) ?? row.supplierState) === row.supplierState : true,
  };
}

/**
 * Why a new sale of an event's tickets would put wrong GST on its invoice, else null (issue 36, ADR 0033):
 * - the tickets' rate (12 or 28 %, saved on the event or the profile before 22 September 2025) is not in
 *   the schedule in force at `now`;
 * - the event is in a city whose area spans states (Delhi/NCR, Chandigarh) and was published before the
 *   venue's state was asked for: the place of supply (IGST Act s.12(6)) would be the city's default state,
 *   CGST + SGST in Delhi for a Gurugram show.
 * Null when no GST is charged on them (an owner not registered, or without a profile). Proceed, the
 * waiting list's Pay and the door sale refuse to sell while it is not null, the publish checklist lists it
 * and the editor shows it. A payment already under way (a hold taken, an offer's order opened) is not
 * refused: it is confirmed and invoiced as quoted.
 */
export function* ticketSaleGstProblemSteps(
  db: DbOrTx,
  eventId: string,
  now: Date,
): Steps<TicketSaleGstProblem | null> {
  return ticketSaleGstProblemOf(yield* row(taxesLookup(db), { eventId }), now);
}

/**
 * `checkoutTaxesSteps` and `ticketSaleGstProblemSteps` from one read of the event's tax row: Proceed needs
 * both, and each statement it runs is counted (proceed-statements.test.ts).
 */
export function* checkoutTaxesAndSaleProblemSteps(
  db: DbOrTx,
  env: Env,
  eventId: string,
  now: Date,
): Steps<{ taxes: CheckoutTaxes; saleGstProblem: TicketSaleGstProblem | null }> {
  const found = yield* row(taxesLookup(db), { eventId });
  return { taxes: taxesOf(env, found), saleGstProblem: ticketSaleGstProblemOf(found, now) };
}

function ticketSaleGstProblemOf(found: TaxesRow | undefined, now: Date): TicketSaleGstProblem | null {
  if (!found || found.gstin === null) return null;
  const rate = ticketTaxRateOf(found.taxRate, found.defaultTaxRate);
  if (!isRateInForce(rate, now)) return { kind: 'rateNotInForce', ratePercent: rate };
  if (venueStateMissing(found)) return { kind: 'venueStateNotSet', city: found.city };
  return null;
}

/**
 * Whether an event's ticket prices have GST added on top ("₹750 + GST", issue 40): only a registered
 * organiser charges it, and the event's own choice wins over the profile's (null: the profile's).
 */
export function pricesPlusGst(row: {
  gstin: string | null;
  eventTaxInclusive: boolean | null;
  taxInclusive: boolean;
}): boolean {
  return row.gstin !== null && !(row.eventTaxInclusive ?? row.taxInclusive);
}

/** Whether the event's page shows its prices "+ GST" (issue 40): the rule above, for one event. */
export function eventPricesPlusGst(db: DbOrTx, eventId: string): boolean {
  const row = taxesLookup(db).get({ eventId });
  return row !== undefined && pricesPlusGst(row);
}

/**
 * Built once per database (or transaction): Proceed and the ticket options read it on every call, and
 * building the join cost more than running it (issue 21).
 */
const taxesLookup = oncePer((db: DbOrTx) => {
  // The engine's own tables (ADR 0045).
  const { events, organiserProfiles } = tablesOf(db);
  // The id cast: a join's planner looks at a plain `?` and re-prepares on every binding (unpeeked-params.ts).
  return db
    .select({
      taxRate: events.taxRate,
      city: events.city,
      venueState: events.venueState,
      category: events.category,
      admissionKind: events.admissionKind,
      supplierState: organiserProfiles.state,
      gstin: organiserProfiles.gstin,
      eventTaxInclusive: events.taxInclusive,
      taxInclusive: organiserProfiles.taxInclusive,
      defaultTaxRate: organiserProfiles.defaultTaxRate,
    })
    .from(events)
    .innerJoin(organiserProfiles, eq(organiserProfiles.userId, events.ownerId))
    .where(eq(events.id, textParam('eventId')))
    .prepare();
});

type TaxesRow = NonNullable<ReturnType<ReturnType<typeof taxesLookup>['get']>>;
