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
