import { eq, inArray } from 'drizzle-orm';
import { priceBreakdown } from '../../../shared/pricing.ts';
import type { BookedTicketType } from '../../../shared/ticket-type.ts';
import { takeSeatsSteps } from '../../services/inventory/holds.ts';
import type { Db } from '../client.ts';
import { runnerFor } from '../engine/runner.ts';
import { changes, rows } from '../engine/steps.ts';
import { tablesOf } from '../engine/tables.ts';

/** Holder of the demo bookings. It has no password, so nobody can sign in as it. */
export const DEMO_AUDIENCE = {
  id: 'demo-audience',
  email: 'audience@demo.jalsa.local',
  name: 'Demo audience',
};
const PER_ORDER = 10;

/**
 * A demo ticket type shown as sold out really is sold: its seats are taken the way a checkout takes
 * them (the inventory's conditional update) and belong to bookings, so the inventory rule
 * (available + held + sold = total) holds for demo data exactly as for real sales. `ticketTypeIds` are
 * the ids the event editor gave the types. One transaction; returns how many bookings it wrote.
 */
export function sellOutDemoTicketTypes(db: Db, ticketTypeIds: string[], now: Date): Promise<number> {
  if (ticketTypeIds.length === 0) return Promise.resolve(0);
  const at = now.toISOString();
  return runnerFor(db).write(function* (tx) {
    const { bookings, eventDates, events, slots, ticketTypes, users } = tablesOf(tx);
    yield* changes(
      tx
        .insert(users)
        .values({ ...DEMO_AUDIENCE, createdAt: at, updatedAt: at })
        .onConflictDoNothing(),
    );
    const types = yield* rows(
      tx
        .select({
          type: ticketTypes,
          slotStart: slots.startTime,
          slotEnd: slots.endTime,
          dateOfEvent: eventDates.dateOfEvent,
          eventId: events.id,
          eventName: events.name,
          eventLocation: events.eventLocationText,
          platformFeeRate: events.platformFeeRate,
        })
        .from(ticketTypes)
        .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .innerJoin(events, eq(events.id, eventDates.eventId))
        .where(inArray(ticketTypes.id, ticketTypeIds)),
    );
    let created = 0;
    for (const row of types) {
      const { type } = row;
      for (let sold = 0, n = 1; sold < type.totalTickets; n += 1) {
        const quantity = Math.min(PER_ORDER, type.totalTickets - sold);
        yield* takeSeatsSteps(tx, [{ ticketTypeId: type.id, quantity }]);
        sold += quantity;
        const bookedType: BookedTicketType = {
          id: type.id,
          name: type.name,
          pricePaise: type.pricePaise,
          personAllowedPerTicket: type.personAllowedPerTicket,
          description: type.description,
          isRefundable: type.isRefundable,
          totalTickets: type.totalTickets,
          availableTickets: type.totalTickets - sold,
          isLive: type.isLive,
        };
        const price = priceBreakdown(type.pricePaise * quantity, row.platformFeeRate);
        const id = `DEMO-${type.id}-${n}`;
        yield* changes(
          tx.insert(bookings).values({
            id,
            paymentId: `demo_pay_${id}`,
            orderId: `demo_order_${id}`,
            eventId: row.eventId,
            slotId: type.slotId,
            ticketDate: row.dateOfEvent,
            ticketSlot: row.slotStart,
            ticketSlotEnd: row.slotEnd,
            ticketType: bookedType,
            ticketTypes: [
              {
                id: type.id,
                name: type.name,
                pricePaise: type.pricePaise,
                quantity,
                personAllowedPerTicket: type.personAllowedPerTicket,
                totalPersons: quantity * type.personAllowedPerTicket,
              },
            ],
            ticketCount: quantity,
            userId: DEMO_AUDIENCE.id,
            userName: DEMO_AUDIENCE.name,
            userPhone: '',
            userEmail: DEMO_AUDIENCE.email,
            userState: 'Delhi',
            eventName: row.eventName,
            eventLocation: row.eventLocation,
            subtotalAmountPaise: price.subtotalPaise,
            feeAmountPaise: price.feePaise,
            igstAmountPaise: price.igstPaise,
            totalAmountPaise: price.grandTotalPaise,
            totalUserAllowed: quantity * type.personAllowedPerTicket,
            createdAt: at,
          }),
        );
        created += 1;
      }
    }
    return created;
  });
}
