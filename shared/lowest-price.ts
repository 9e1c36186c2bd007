import { formatPaise } from './money.ts';

/** The part of the event document that carries prices: dates → slots → ticket types. */
export interface PricedDates {
  slots: { tickets: { pricePaise: number }[] }[];
}

/** The minimum price over all ticket types of all slots of all dates (spec §2), or null when there are none. */
export function lowestPricePaise(dates: readonly PricedDates[]): number | null {
  let lowest: number | null = null;
  for (const date of dates) {
    for (const slot of date.slots) {
      for (const ticket of slot.tickets) {
        if (lowest === null || ticket.pricePaise < lowest) lowest = ticket.pricePaise;
      }
    }
  }
  return lowest;
}

/** '₹499 Onwards' ('₹499 + GST Onwards' with GST added at checkout); null when there are no ticket types. */
export function formatOnwards(pricePaise: number | null, plusGst = false): string | null {
  return pricePaise === null ? null : `${formatPrice(pricePaise, plusGst)} Onwards`;
}

/**
 * A ticket price as the buyer first sees it: '₹750', or '₹750 + GST' where the organiser's prices have
 * GST added at checkout (issue 40; the consumer rules forbid showing a price the buyer will not pay
 * without saying so).
 */
export function formatPrice(pricePaise: number, plusGst: boolean): string {
  return plusGst ? `${formatPaise(pricePaise)} + GST` : formatPaise(pricePaise);
}
