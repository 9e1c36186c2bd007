import { asc, eq, inArray } from 'drizzle-orm';
import type { TicketType } from '../../../shared/ticket-type.ts';
import type { DbOrTx } from '../../db/client.ts';
import { rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { QUOTA_LEFT_OF_TYPE } from '../quotas/quota-seats.ts';

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
  db: DbOrTx,
  eventId: string,
  shown: 'all' | ReadonlySet<string>,
): EventDateDetail[] {
  return runSync(ticketTreeSteps(db, eventId, shown));
}

/**
 * `loadTicketTree` written once for both engines (ADR 0045). `limitByQuotas`: each type's available
 * seats never more than its quotas have left, as a buyer sees them (quotas/limit-by-quotas.ts's rule,
 * read here as a column of the types' own query, so no statement of its own).
 */
export function* ticketTreeSteps(
  db: DbOrTx,
  eventId: string,
  shown: 'all' | ReadonlySet<string>,
  options: { limitByQuotas?: boolean } = {},
): Steps<EventDateDetail[]> {
  const { eventDates, slots, ticketTypes } = tablesOf(db);
  const dateRows = yield* rows(
    db
      .select({ id: eventDates.id, dateOfEvent: eventDates.dateOfEvent, isLive: eventDates.isLive })
      .from(eventDates)
      .where(eq(eventDates.eventId, eventId))
      .orderBy(asc(eventDates.dateOfEvent)),
  );
  const slotRows = dateRows.length
    ? yield* rows(
        db
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
          .orderBy(asc(slots.startTime)),
      )
    : [];
  const typeRows = slotRows.length
    ? yield* rows(
        db
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
            ...(options.limitByQuotas ? { quotaLeft: QUOTA_LEFT_OF_TYPE } : {}),
          })
          .from(ticketTypes)
          .where(
            inArray(
              ticketTypes.slotId,
              slotRows.map((s) => s.id),
            ),
          )
          .orderBy(asc(ticketTypes.position), asc(ticketTypes.id)),
      )
    : [];
  const visible = typeRows.filter((t) => !t.isHidden || shown === 'all' || shown.has(t.id));

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
        tickets: visible.filter((t) => t.slotId === slot.id).map(asBuyerSees),
      })),
  }));
}

/** A type as the tree shows it: without its slot id, its seats limited by its quotas when read. */
function asBuyerSees({
  slotId: _slotId,
  quotaLeft,
  ...type
}: TicketType & { slotId: string; quotaLeft?: number | null }): TicketType {
  if (quotaLeft === undefined || quotaLeft === null) return type;
  return { ...type, availableTickets: Math.max(0, Math.min(type.availableTickets, quotaLeft)) };
}
