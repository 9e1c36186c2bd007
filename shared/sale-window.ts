import { formatInIndia } from './dates.ts';

export type SaleWindowState = 'open' | 'not_yet_open' | 'closed';

/** Where `now` falls in a ticket type's sale window (null ends are open). */
export function saleWindowState(
  window: { saleOpensAt: string | null; saleClosesAt: string | null },
  now: Date,
): SaleWindowState {
  const at = now.getTime();
  if (window.saleOpensAt && at < Date.parse(window.saleOpensAt)) return 'not_yet_open';
  if (window.saleClosesAt && at >= Date.parse(window.saleClosesAt)) return 'closed';
  return 'open';
}

/** What a buyer reads for a ticket type outside its sale window; null while it is on sale. */
export function saleWindowMessage(
  window: { saleOpensAt: string | null; saleClosesAt: string | null },
  now: Date,
): string | null {
  const state = saleWindowState(window, now);
  if (state === 'not_yet_open')
    return `Sale opens ${formatInIndia(window.saleOpensAt!, 'd MMM yyyy, h:mm a')}`;
  if (state === 'closed') return 'Sales closed';
  return null;
}
