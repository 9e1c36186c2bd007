/**
 * "Copy ticket types to all slots", planned once for both sides: the server inserts what this plans and
 * the editor's confirmation names the same counts before anything is written (issue 35, item 17).
 */

export interface CopySlot<T> {
  id: string;
  startTime: string;
  /** A cancelled slot sells nothing: nothing is copied into it. */
  cancelled: boolean;
  tickets: T[];
}

export interface CopyPlan<T> {
  /** Per slot that gains something: the source's types it lacks by name, in the source's order. */
  additions: { slot: CopySlot<T>; types: T[] }[];
  ticketTypes: number;
  /** Seats put on sale by the copy (each copied type's full capacity). */
  seats: number;
}

/**
 * What copying `fromSlotId`'s ticket types adds: every other live slot of the event gets each type it
 * lacks by name (a type it already has keeps its own settings, so running the copy twice adds nothing).
 */
export function planTicketTypeCopy<T extends { name: string; totalTickets: number }>(
  slots: CopySlot<T>[],
  fromSlotId: string,
): CopyPlan<T> {
  const source = slots.find((s) => s.id === fromSlotId);
  const additions = slots
    .filter((slot) => source && slot.id !== source.id && !slot.cancelled)
    .map((slot) => {
      const names = new Set(slot.tickets.map((t) => t.name));
      return { slot, types: (source?.tickets ?? []).filter((t) => !names.has(t.name)) };
    })
    .filter((a) => a.types.length > 0);
  const types = additions.flatMap((a) => a.types);
  return {
    additions,
    ticketTypes: types.length,
    seats: types.reduce((sum, t) => sum + t.totalTickets, 0),
  };
}

/**
 * A copied sale-window instant: as far from the target slot's start as it was from the source slot's
 * (closing 2 hours before the evening show closes 2 hours before the matinee, not at the evening's
 * time on another day). Null (open on that side) stays null.
 */
export function shiftToSlot(instant: string | null, fromStart: string, toStart: string): string | null {
  if (instant === null) return null;
  return new Date(Date.parse(instant) + Date.parse(toStart) - Date.parse(fromStart)).toISOString();
}
