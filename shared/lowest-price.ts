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

/** '₹499 Onwards'; null (the line is hidden) when the event has no ticket types. */
export function formatOnwards(pricePaise: number | null): string | null {
  return pricePaise === null ? null : `${formatPaise(pricePaise)} Onwards`;
}
