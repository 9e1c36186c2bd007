/**
 * Money is integer paise everywhere; rupees appear only here, when formatted for people.
 *
 * Formatted by hand rather than with `Intl.NumberFormat('en-IN', { style: 'currency' })`: building that
 * formatter loads the browser's Indian-locale number data, 50–80 ms on a phone (Chromium at 4× CPU
 * slowdown), in the task that evaluates the app's start-up modules: the largest single piece of the home
 * and event pages' blocking time (issue 39, docs/benchmarks.md). The output is the same, character for
 * character (money.test.ts checks it against Intl): '₹' then the rupees in Indian grouping (the last three
 * digits, then pairs: 1,23,45,678), then '.' and the paise; a minus sign before the '₹'.
 */

/**
 * A whole count in Indian digit grouping, as `n.toLocaleString('en-IN')` prints it ('1,23,456'), without
 * loading the browser's locale data for it (the home page's "12 events" cost 50 ms on a phone, issue 39).
 * A fraction (no count has one) is left to the browser.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-IN');
  return `${n < 0 ? '-' : ''}${groupIndian(String(Math.abs(n)))}`;
}

/** ₹1,234.5 → '₹1,234.50'; whole rupees drop the paise ('₹499'). */
export function formatPaise(paise: number): string {
  return format(paise, false);
}

/** Always two decimals, as on a bill ('₹1,234.00'). */
export function formatPaiseExact(paise: number): string {
  return format(paise, true);
}

/** 199.99 → 19999. For turning a typed or seeded rupee amount into paise without float drift. */
export function rupeesToPaise(rupeesAmount: number): number {
  return Math.round(rupeesAmount * 100);
}

function format(paise: number, exact: boolean): string {
  // A fraction of a paisa (never stored, but a computed share could carry one) rounds half away from
  // zero, as Intl's default rounding does.
  const whole = Math.round(Math.abs(paise));
  const sign = paise < 0 && whole !== 0 ? '-' : '';
  const rupeesPart = groupIndian(String(Math.floor(whole / 100)));
  const paisePart = whole % 100;
  if (!exact && paisePart === 0) return `${sign}₹${rupeesPart}`;
  return `${sign}₹${rupeesPart}.${String(paisePart).padStart(2, '0')}`;
}

/** '12345678' → '1,23,45,678'. */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const last3 = digits.slice(-3);
  let rest = digits.slice(0, -3);
  const pairs: string[] = [];
  while (rest.length > 2) {
    pairs.unshift(rest.slice(-2));
    rest = rest.slice(0, -2);
  }
  return `${rest},${pairs.length ? `${pairs.join(',')},` : ''}${last3}`;
}
