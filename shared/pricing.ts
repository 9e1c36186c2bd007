/**
 * The one implementation of the spec's fee rules (§9), used by the checkout to preview and by the
 * server to charge. Everything is integer paise; each amount is rounded half-up to the paisa.
 */

/** Percent of the subtotal charged as the convenience fee when an event sets no platformFeeRate. */
export const DEFAULT_PLATFORM_FEE_RATE = 5;
/** The editor's own upper limit for an event's convenience fee, in percent; an admin may cap it lower. */
export const MAX_CONVENIENCE_FEE_RATE = 20;
/** IGST, percent of the convenience fee. */
export const IGST_RATE = 18;
/** Most tickets of one type in one order (fewer when fewer are available). */
export const MAX_TICKETS_PER_TYPE = 10;

export interface PriceBreakdown {
  subtotalPaise: number;
  /** Convenience fee: platformFeeRate % of the subtotal. */
  feePaise: number;
  /** IGST 18 % of the convenience fee. */
  igstPaise: number;
  /** Booking fee as the Payment Summary shows it: convenience fee + IGST. */
  bookingFeePaise: number;
  grandTotalPaise: number;
}

export interface PricedLine {
  pricePaise: number;
  quantity: number;
}

/** Sum of price × quantity over the selected ticket types. */
export function subtotalOf(lines: readonly PricedLine[]): number {
  return lines.reduce((sum, line) => sum + line.pricePaise * line.quantity, 0);
}

/**
 * Fee, IGST and grand total for a subtotal. `platformFeeRate` is the event's percent (null or undefined
 * means the default 5 %); rates with up to two decimals (2.5 %) are exact.
 */
export function priceBreakdown(subtotalPaise: number, platformFeeRate?: number | null): PriceBreakdown {
  if (!Number.isSafeInteger(subtotalPaise) || subtotalPaise < 0) {
    throw new RangeError(`subtotal must be a non-negative whole number of paise, got ${subtotalPaise}`);
  }
  const rate = platformFeeRate ?? DEFAULT_PLATFORM_FEE_RATE;
  if (!Number.isFinite(rate) || rate < 0) throw new RangeError(`fee rate must be a percentage, got ${rate}`);
  // Rates in hundredths of a percent keep the arithmetic in integers: no 999.9499… float surprises.
  const rateBasisPoints = Math.round(rate * 100);
  const feePaise = divideRoundHalfUp(subtotalPaise * rateBasisPoints, 10_000);
  const igstPaise = divideRoundHalfUp(feePaise * IGST_RATE, 100);
  return {
    subtotalPaise,
    feePaise,
    igstPaise,
    bookingFeePaise: feePaise + igstPaise,
    grandTotalPaise: subtotalPaise + feePaise + igstPaise,
  };
}

/** Half-up rounding of a non-negative integer quotient. */
function divideRoundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}
