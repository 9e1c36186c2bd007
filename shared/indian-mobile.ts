/**
 * An Indian mobile number as people type it ('+91 98765 43210', '098765-43210', '(98765) 43210'): spaces,
 * dashes, dots and brackets ignored, then an optional +91, 0 or 91 before ten digits starting 6-9.
 */
const MOBILE_AS_TYPED = /^(?:\+91)?0?(?:91)?([6-9]\d{9})$/;

/** Enough for '+91 0 98765-43210' and the like; longer is not a phone number. */
export const MOBILE_INPUT_MAX = 24;

/** The ten digits of a mobile number as typed, or null when it is not one. */
export function indianMobileDigits(typed: string): string | null {
  if (typed.length > MOBILE_INPUT_MAX) return null;
  return MOBILE_AS_TYPED.exec(typed.replace(/[\s\-().]/g, ''))?.[1] ?? null;
}

/** A search box's query that reads as a (part of a) phone number: digits and the marks people type between them. */
const TYPED_AS_A_NUMBER = /^[\d\s\-().+]+$/;

/**
 * The digits a search for a mobile number should look for, or '' when the query is not a number: the
 * digits inside a booking id ('jby88dq7' holds 887) or a name must not find whoever's mobile holds them.
 * At most the last ten, so '+91 98765 43210' finds the stored '9876543210'.
 */
export function mobileDigitsSearchedBy(query: string): string {
  const q = query.trim();
  return TYPED_AS_A_NUMBER.test(q) ? q.replace(/\D/g, '').slice(-10) : '';
}
