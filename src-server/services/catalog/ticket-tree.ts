import { asc, eq, inArray } from 'drizzle-orm';
import type { TicketType } from '../../../shared/ticket-type.ts';
import type { Db } from '../../db/client.ts';
import { eventDates, slots, ticketTypes } from '../../db/schema/catalog.ts';

export interface EventDateDetail {
  id: string;
  dateOfEvent: string;
  isLive: boolean;
  slots: {
    id: string;
    startTime: string;
    endTime: string;
    /** The organiser cancelled it: shown as cancelled, nothing can be bought. */
    cancelled: boolean;
    tickets: TicketType[];
  }[];
}

/**
 * An event's dates → slots → ticket types (spec §3), in display order: dates and slots by time, ticket
 * types as the organiser listed them. The event page and the ticket selection both read it. `shown`:
 * which hidden types are in it (ADR 0038): 'all' for the event's team, else those a buyer's access
 * code unlocks (services/access-codes/hidden-types.ts).
 */
export function loadTicketTree(
  db: Db,
  eventId: string,
  shown: 'all' | ReadonlySet<string>,
): EventDateDetail[] {
  const dateRows = db
    .select({ id: eventDates.id, dateOfEvent: eventDates.dateOfEvent, isLive: eventDates.isLive })
    .from(eventDates)
    .where(eq(eventDates.eventId, eventId))
    .orderBy(asc(eventDates.dateOfEvent))
    .all();
  const slotRows = dateRows.length
    ? db
        .select({
          id: slots.id,
          eventDateId: slots.eventDateId,
          startTime: slots.startTime,
          endTime: slots.endTime,
          cancelledAt: slots.cancelledAt,
        })
        .from(slots)
        .where(
          inArray(
            slots.eventDateId,
            dateRows.map((d) => d.id),
          ),
        )
        .orderBy(asc(slots.startTime))
        .all()
    : [];
  const typeRows = slotRows.length
    ? db
        .select({
          id: ticketTypes.id,
          slotId: ticketTypes.slotId,
          name: ticketTypes.name,
          pricePaise: ticketTypes.pricePaise,
          personAllowedPerTicket: ticketTypes.personAllowedPerTicket,
          description: ticketTypes.description,
          isRefundable: ticketTypes.isRefundable,
          totalTickets: ticketTypes.totalTickets,
          availableTickets: ticketTypes.availableTickets,
          isLive: ticketTypes.isLive,
          benefits: ticketTypes.benefits,
          maxPerOrder: ticketTypes.maxPerOrder,
          saleOpensAt: ticketTypes.saleOpensAt,
          saleClosesAt: ticketTypes.saleClosesAt,
          isHidden: ticketTypes.isHidden,
          perAttendeeTickets: ticketTypes.perAttendeeTickets,
        })
        .from(ticketTypes)
        .where(
          inArray(
            ticketTypes.slotId,
            slotRows.map((s) => s.id),
          ),
        )
        .orderBy(asc(ticketTypes.position), asc(ticketTypes.id))
        .all()
        .filter((t) => !t.isHidden || shown === 'all' || shown.has(t.id))
    : [];

  return dateRows.map((date) => ({
    id: date.id,
    dateOfEvent: date.dateOfEvent,
    isLive: date.isLive,
    slots: slotRows
      .filter((s) => s.eventDateId === date.id)
      .map((slot) => ({
        id: slot.id,
        startTime: slot.startTime,
        endTime: slot.endTime,
        cancelled: slot.cancelledAt !== null,
        tickets: typeRows.filter((t) => t.slotId === slot.id).map(({ slotId: _slotId, ...type }) => type),
      })),
  }));
}
