import { indiaCalendarDay } from '../../shared/dates.ts';

interface DateLike<S> {
  id: string;
  dateOfEvent: string;
  slots: S[];
}

/** One chip on ticket selection: a calendar day in India with every slot on it, each with its date's id. */
export interface TicketDay<S> {
  key: string;
  dateOfEvent: string;
  slots: { dateId: string; slot: S }[];
}

/**
 * The event's dates as one chip per calendar day (IST): an organiser may list a day twice (one date per
 * show), which would otherwise show two identical chips. Days and their slots run in time order.
 */
export function ticketDays<S extends { startTime: string }>(dates: DateLike<S>[]): TicketDay<S>[] {
  const byDay = new Map<string, TicketDay<S>>();
  for (const date of dates) {
    const key = indiaCalendarDay(date.dateOfEvent);
    let day = byDay.get(key);
    if (!day) {
      day = { key, dateOfEvent: date.dateOfEvent, slots: [] };
      byDay.set(key, day);
    }
    for (const slot of date.slots) day.slots.push({ dateId: date.id, slot });
  }
  const days = [...byDay.values()].sort((a, b) => a.key.localeCompare(b.key));
  for (const day of days) day.slots.sort((a, b) => a.slot.startTime.localeCompare(b.slot.startTime));
  return days;
}

/**
 * The day and slot to show first: the first slot, in time order, with a ticket type on sale; the very
 * first one when nothing is (the page then says so per ticket type).
 */
export function firstOnSale<S extends { ticketTypes: T[] }, T>(
  days: TicketDay<S>[],
  onSale: (type: T) => boolean,
): { dayIndex: number; slotIndex: number } {
  for (const [dayIndex, day] of days.entries()) {
    const slotIndex = day.slots.findIndex(({ slot }) => slot.ticketTypes.some(onSale));
    if (slotIndex >= 0) return { dayIndex, slotIndex };
  }
  return { dayIndex: 0, slotIndex: 0 };
}
