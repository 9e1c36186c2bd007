import { exclusiveTaxPaise } from './gst.ts';
import { feePlaceOfSupply, type StateTaxHead, stateTaxHeadOf } from './gst-states.ts';

/**
 * The one implementation of the spec's fee rules (§9), used by the checkout to preview and by the
 * server to charge. Everything is integer paise; each amount is rounded half-up to the paisa.
 */

/** Percent of the subtotal charged as the convenience fee when an event sets no platformFeeRate. */
export const DEFAULT_PLATFORM_FEE_RATE = 5;
/** The editor's own upper limit for an event's convenience fee, in percent; an admin may cap it lower. */
export const MAX_CONVENIENCE_FEE_RATE = 20;
/** IGST, percent of the convenience fee, when the platform is registered for GST. */
export const IGST_RATE = 18;
/**
 * What the checkout shows instead of the IGST line when the platform has no GST registration: the fee
 * is then charged without tax (issue 16), and said so rather than left out.
 */
export const FEE_TAX_NOT_CHARGED = { label: 'GST on convenience fee', value: 'Not charged' } as const;
/** The line for admission GST added on top of tax-exclusive ticket prices. */
export const TICKET_GST_LABEL = 'GST on tickets (prices exclude GST)';

/**
 * How the GST on the fee is levied, exactly as the platform's fee invoice levies it (issue 36):
 * CGST + SGST (or UTGST) when the fee's place of supply is the platform's state, else IGST.
 */
export type FeeTaxSplit = { intra: true; stateHead: StateTaxHead } | { intra: false };

/** The fee's split for a buyer: the place of supply is their GSTIN's state, else the state they gave. */
export function feeTaxSplitFor(
  platformState: string,
  buyer: { state: string; buyerGstin?: string | null },
): FeeTaxSplit {
  const place = feePlaceOfSupply(buyer);
  return place === platformState ? { intra: true, stateHead: stateTaxHeadOf(place) } : { intra: false };
}

/** "CGST 9% + SGST 9%" or "IGST 18%"; "GST 18%" while the buyer's state is not known yet. */
export function feeTaxLabel(split: FeeTaxSplit | null, ratePercent: number = IGST_RATE): string {
  if (!split) return `GST ${ratePercent}%`;
  return split.intra
    ? `CGST ${ratePercent / 2}% + ${split.stateHead} ${ratePercent / 2}%`
    : `IGST ${ratePercent}%`;
}

/**
 * The booking fee's label on a booking (mail, organiser's order view): with its GST as the fee invoice
 * levies it, or said to carry none. `split` null: the heads are not known (no fee invoice).
 */
export function bookingFeeLabel(feeGstPaise: number, split: FeeTaxSplit | null = null): string {
  return feeGstPaise > 0 ? `Booking fee (incl. ${feeTaxLabel(split)})` : 'Booking fee (not charged with tax)';
}
/** Most tickets of one type in one order (fewer when fewer are available). */
export const MAX_TICKETS_PER_TYPE = 10;

export interface PriceBreakdown {
  subtotalPaise: number;
  /** Admission GST added on top of tax-exclusive ticket prices (0 when prices include it). */
  admissionTaxPaise: number;
  /** Convenience fee: platformFeeRate % of the subtotal. */
  feePaise: number;
  /** IGST 18 % of the convenience fee; 0 when the platform charges none (`feeTaxRatePercent` 0). */
  igstPaise: number;
  /** The GST rate applied to the fee: 18, or 0 when the platform has no GST registration. */
  feeTaxRatePercent: number;
  /** Booking fee as the Payment Summary shows it: convenience fee + IGST. */
  bookingFeePaise: number;
  grandTotalPaise: number;
}

export interface PricedLine {
  pricePaise: number;
  quantity: number;
  /** Paise a discount code takes off each ticket, before tax and fee (issue 40); absent: none. */
  discountPerTicketPaise?: number;
}

/** Sum of (price − discount) × quantity over the selected ticket types: what the tickets are charged. */
export function subtotalOf(lines: readonly PricedLine[]): number {
  return lines.reduce(
    (sum, line) => sum + (line.pricePaise - (line.discountPerTicketPaise ?? 0)) * line.quantity,
    0,
  );
}

/** What a discount code takes off the selection, before tax and fee. */
export function discountOf(lines: readonly PricedLine[]): number {
  return lines.reduce((sum, line) => sum + (line.discountPerTicketPaise ?? 0) * line.quantity, 0);
}

/**
 * How the server taxes one event's checkout (services/checkout/checkout-pricing.ts decides; the
 * ticket options carry it so the checkout previews exactly what Proceed will charge).
 */
export interface CheckoutTaxes {
  /** GST on the convenience fee: 18 when the platform is registered for GST, else 0 (not charged). */
  feeTaxRatePercent: number;
  /**
   * The admission GST rate added on top of the ticket prices when the organiser's prices are
   * tax-exclusive; null when the prices already include it (or the organiser charges no GST).
   */
  admissionTaxRatePercent: number | null;
  /**
   * The rate the organiser's invoice taxes the tickets at, inclusive or "+ GST"; null when the organiser
   * is not registered (no GST charged). The checkout weighs Rule 46's ₹50,000 on the taxable value it
   * gives (shared/recipient-address.ts).
   */
  admissionInvoiceRatePercent: number | null;
  /** Whether entry 81's ₹500 exemption applies to the event's kind of admission (shared/gst.ts). */
  admissionExemptionApplies: boolean;
  /** Whether the admission is intra-state (the venue in the organiser's state): each head rounds alone. */
  admissionIntraState: boolean;
  /**
   * The platform's state when it charges GST on the fee, so the checkout names the fee's tax heads as
   * its invoice will (`feeTaxSplitFor`); null when the fee is not charged with tax.
   */
  feeSupplierState: string | null;
}

/** Today's behaviour for callers that price without an event's settings (benchmarks, inventory tests). */
export const DEFAULT_CHECKOUT_TAXES: CheckoutTaxes = {
  feeTaxRatePercent: IGST_RATE,
  admissionTaxRatePercent: null,
  admissionInvoiceRatePercent: null,
  admissionExemptionApplies: true,
  admissionIntraState: true,
  feeSupplierState: null,
};

/**
 * Fee, IGST and grand total for a subtotal. `platformFeeRate` is the event's percent (null or undefined
 * means the default 5 %); rates with up to two decimals (2.5 %) are exact. `taxes.admissionTaxPaise`
 * (from shared/gst.ts `exclusiveTaxPaise`) is added to the total; the fee stays a percentage of the
 * ticket prices as set, so an organiser's tax setting never changes the platform's fee.
 */
export function priceBreakdown(
  subtotalPaise: number,
  platformFeeRate?: number | null,
  taxes: { feeTaxRatePercent?: number; admissionTaxPaise?: number } = {},
): PriceBreakdown {
  if (!Number.isSafeInteger(subtotalPaise) || subtotalPaise < 0) {
    throw new RangeError(`subtotal must be a non-negative whole number of paise, got ${subtotalPaise}`);
  }
  const rate = platformFeeRate ?? DEFAULT_PLATFORM_FEE_RATE;
  if (!Number.isFinite(rate) || rate < 0) throw new RangeError(`fee rate must be a percentage, got ${rate}`);
  // Rates in hundredths of a percent keep the arithmetic in integers: no 999.9499… float surprises.
  const rateBasisPoints = Math.round(rate * 100);
  const feePaise = divideRoundHalfUp(subtotalPaise * rateBasisPoints, 10_000);
  const feeTaxRatePercent = taxes.feeTaxRatePercent ?? IGST_RATE;
  const igstPaise = divideRoundHalfUp(feePaise * feeTaxRatePercent, 100);
  const admissionTaxPaise = taxes.admissionTaxPaise ?? 0;
  return {
    subtotalPaise,
    admissionTaxPaise,
    feePaise,
    igstPaise,
    feeTaxRatePercent,
    bookingFeePaise: feePaise + igstPaise,
    grandTotalPaise: subtotalPaise + admissionTaxPaise + feePaise + igstPaise,
  };
}

/** A hold's or a booking's stored amounts, enough to tell the ticket GST inside its total. */
export interface ChargedAmounts {
  totalPaise: number;
  /** The tickets, after any discount, before tax. */
  subtotalPaise: number;
  /**
   * The add-ons sold with the tickets, each with its own GST inside (ADR 0041); 0 without. Required, so
   * a caller says it has none rather than forgets them.
   */
  addOnsPaise: number;
  /** The convenience fee, before its GST. */
  feePaise: number;
  /** The fee's GST (0 when the platform charges none). */
  igstPaise: number;
}

/**
 * The admission GST added on top of tax-exclusive ticket prices, read back from what was charged: the
 * total beyond the tickets, the add-ons (their GST is inside their prices), the fee and the fee's GST.
 * 0 when the prices include GST. Holds and bookings store the total, not this figure, so the payment
 * window, the offer page, the confirmation mail and the organiser's order view all read it here.
 */
export function admissionTaxOf(charged: ChargedAmounts): number {
  return (
    charged.totalPaise - charged.subtotalPaise - charged.addOnsPaise - charged.feePaise - charged.igstPaise
  );
}

/** Half-up rounding of a non-negative integer quotient. */
function divideRoundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** A selected line with what the admission tax needs: its price and persons per ticket. */
export interface CheckoutLine extends PricedLine {
  personsPerTicket: number;
}

/**
 * The checkout's whole price, as Proceed charges it and the Payment Summary previews it: the ticket
 * subtotal, the admission GST on top when prices are tax-exclusive, the fee and its GST (if any).
 */
export function checkoutPriceBreakdown(
  lines: readonly CheckoutLine[],
  platformFeeRate: number | null | undefined,
  taxes: CheckoutTaxes,
): PriceBreakdown {
  const admissionTaxPaise =
    taxes.admissionTaxRatePercent === null
      ? 0
      : exclusiveTaxPaise(lines, {
          taxRatePercent: taxes.admissionTaxRatePercent,
          exemptionApplies: taxes.admissionExemptionApplies,
          intraState: taxes.admissionIntraState,
        });
  return priceBreakdown(subtotalOf(lines), platformFeeRate, {
    feeTaxRatePercent: taxes.feeTaxRatePercent,
    admissionTaxPaise,
  });
}
