import { parseAccessCodeSearch } from '../../lib/access-code-search.ts';
import { definedOnly, optionalNumber, optionalString } from '../../lib/search-params.ts';

/**
 * What ticket selection hands to the checkout (spec §2), carried in the URL so a reload of the checkout
 * keeps it. The event itself is loaded again by id, so prices and availability are always current.
 */
export interface CheckoutSearch {
  eventId?: string;
  selectedDate?: string;
  selectedSlot?: string;
  selectedTickets?: { ticketTypeId: string; quantity: number }[];
  totalPrice?: number;
  totalTickets?: number;
  eventName?: string;
  eventLocation?: string;
  /** The buyer's access code (ADR 0038), from the event link through the ticket selection. */
  code?: string;
}

/**
 * The route's `validateSearch`: each field of the wrong shape is dropped. A plain function rather than a
 * zod schema because route definitions load with every page and zod must stay out of the home page.
 */
export function parseCheckoutSearch(search: Record<string, unknown>): CheckoutSearch {
  return definedOnly({
    eventId: optionalString(search.eventId),
    selectedDate: optionalString(search.selectedDate),
    selectedSlot: optionalString(search.selectedSlot),
    selectedTickets: ticketLines(search.selectedTickets),
    totalPrice: optionalNumber(search.totalPrice),
    totalTickets: optionalNumber(search.totalTickets),
    eventName: optionalString(search.eventName),
    eventLocation: optionalString(search.eventLocation),
    code: parseAccessCodeSearch(search).code,
  });
}

/** Every line must have a text id and a whole quantity from 1 to 10, or the whole list is dropped. */
function ticketLines(value: unknown): CheckoutSearch['selectedTickets'] {
  if (!Array.isArray(value)) return undefined;
  const lines: { ticketTypeId: string; quantity: number }[] = [];
  for (const line of value) {
    const { ticketTypeId, quantity } = (line ?? {}) as Record<string, unknown>;
    if (typeof line !== 'object' || typeof ticketTypeId !== 'string') return undefined;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > 10) {
      return undefined;
    }
    lines.push({ ticketTypeId, quantity });
  }
  return lines;
}
