import { priceBreakdown } from '../../../shared/pricing.ts';
import type { EventDocument } from '../../services/catalog/insert-event.ts';
import type { Db } from '../client.ts';
import { users } from '../schema/accounts.ts';
import type { BookedTicketType } from '../schema/bookings.ts';
import { bookings } from '../schema/bookings.ts';

/** Holder of the demo bookings. It has no password, so nobody can sign in as it. */
export const DEMO_AUDIENCE = {
  id: 'demo-audience',
  email: 'audience@demo.jalsa.local',
  name: 'Demo audience',
};
const PER_ORDER = 10;

/**
 * A demo ticket type shown as sold out really is sold: its seats belong to bookings, so the inventory
 * rule (available + held + sold = total) holds for demo data exactly as for real sales.
 */
export function seedSoldOutBookings(db: Db, docs: EventDocument[], now: Date): number {
  const at = now.toISOString();
  let created = 0;
  db.transaction((tx) => {
    tx.insert(users)
      .values({ ...DEMO_AUDIENCE, createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .run();
    for (const event of docs) {
      for (const date of event.tickets) {
        for (const slot of date.slots) {
          for (const type of slot.tickets) {
            if (type.availableTickets > 0 || type.totalTickets === 0) continue;
            const bookedType: BookedTicketType = { ...type };
            for (let sold = 0, n = 1; sold < type.totalTickets; n += 1) {
              const quantity = Math.min(PER_ORDER, type.totalTickets - sold);
              sold += quantity;
              const subtotal = type.pricePaise * quantity;
              const price = priceBreakdown(subtotal, event.platformFeeRate);
              const id = `DEMO-${type.id}-${n}`;
              tx.insert(bookings)
                .values({
                  id,
                  paymentId: `demo_pay_${id}`,
                  orderId: `demo_order_${id}`,
                  eventId: event.id,
                  slotId: slot.id,
                  ticketDate: date.dateOfEvent,
                  ticketSlot: slot.startTime,
                  ticketSlotEnd: slot.endTime,
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
                  eventName: event.name,
                  eventLocation: event.eventLocationText,
                  subtotalAmountPaise: price.subtotalPaise,
                  feeAmountPaise: price.feePaise,
                  igstAmountPaise: price.igstPaise,
                  totalAmountPaise: price.grandTotalPaise,
                  totalUserAllowed: quantity * type.personAllowedPerTicket,
                  createdAt: at,
                })
                .run();
              created += 1;
            }
          }
        }
      }
    }
  });
  return created;
}
