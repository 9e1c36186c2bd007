import { and, eq } from 'drizzle-orm';
import { rupeesToPaise } from '../../../shared/money.ts';
import type { CheckoutTaxes } from '../../../shared/pricing.ts';
import type { TicketType } from '../../../shared/ticket-type.ts';
import type { Db } from '../../db/client.ts';
import { eventDates, events, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { unlockedTypeIds } from '../access-codes/hidden-types.ts';
import { addOnsForSale, type BuyerAddOn } from '../add-ons/list-add-ons.ts';
import { type EventDateDetail, loadTicketTree } from '../catalog/ticket-tree.ts';
import { limitByQuotas } from '../quotas/limit-by-quotas.ts';
import { readWaitingRoom } from '../waiting-room/read-waiting-room.ts';
import { checkoutTaxesOf } from './checkout-taxes.ts';

/**
 * The §3 fallback for an event with no ticket types: one date, one slot and three sample types, each
 * one person per ticket, refundable and live. They are real inventory, so they can be held and sold.
 */
export const FALLBACK_TICKET_TYPES = [
  { key: 'student', name: 'Student Pass', price: 199.99, total: 100 },
  { key: 'lounge', name: 'Lounge Pass', price: 499.99, total: 50 },
  { key: 'gold', name: 'Gold Circle', price: 999.99, total: 25 },
] as const;

/** Length of the fallback slot when the event has no end time. */
const FALLBACK_SLOT_MS = 3 * 60 * 60 * 1000;

export interface TicketOptions {
  event: {
    id: string;
    name: string;
    eventLocationText: string;
    city: string;
    posterUrl: string | null;
    imageUrl: string | null;
    startTime: string;
    endTime: string | null;
    platformFeeRate: number | null;
  };
  /** How the server taxes this checkout: the Payment Summary previews with it, Proceed charges with it. */
  taxes: CheckoutTaxes;
  /** The event's waiting room while it is on (issue 19): the page sends buyers without a pass there. */
  waitingRoom: { opensAt: string } | null;
  /** Add-ons on sale (ADR 0041), with what is left of each variant; the server prices them at Proceed. */
  addOns: BuyerAddOn[];
  dates: {
    id: string;
    dateOfEvent: string;
    slots: {
      id: string;
      startTime: string;
      endTime: string;
      cancelled: boolean;
      ticketTypes: TicketType[];
    }[];
  }[];
}

/**
 * What the ticket selection and checkout pages show: the event header and its live dates → slots →
 * ticket types with current availability. Materialises the §3 fallback the first time it is needed.
 */
export async function ticketOptions(
  deps: Pick<AppDeps, 'db' | 'sqlite' | 'env' | 'clock'>,
  eventId: string,
  accessCode?: string,
): Promise<TicketOptions> {
  const { db, env } = deps;
  const event = db
    .select({
      id: events.id,
      name: events.name,
      eventLocationText: events.eventLocationText,
      city: events.city,
      posterUrl: events.posterUrl,
      imagesUrls: events.imagesUrls,
      startTime: events.startTime,
      endTime: events.endTime,
      platformFeeRate: events.platformFeeRate,
    })
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.status, 'published')))
    .get();
  if (!event) throw notFound('Event not found');

  // Hidden types only with the access code that unlocks them (ADR 0038); the fallback is for an event
  // with no types at all, hidden ones included.
  const shown = unlockedTypeIds(db, eventId, accessCode, deps.clock.now());
  const hasTypes = (tree: EventDateDetail[]) =>
    tree.some((date) => date.slots.some((s) => s.tickets.length > 0));
  let tree = loadTicketTree(db, eventId, shown);
  if (!hasTypes(tree) && !hasTypes(loadTicketTree(db, eventId, 'all'))) {
    await ensureFallbackTicketTypes(db, event);
    tree = loadTicketTree(db, eventId, shown);
  }
  tree = limitByQuotas(db, tree);

  return {
    event: {
      id: event.id,
      name: event.name,
      eventLocationText: event.eventLocationText,
      city: event.city,
      posterUrl: event.posterUrl,
      imageUrl: event.imagesUrls[0] ?? null,
      startTime: event.startTime,
      endTime: event.endTime,
      platformFeeRate: event.platformFeeRate,
    },
    taxes: checkoutTaxesOf(db, env, event.id),
    waitingRoom: waitingRoomOn(deps.sqlite, eventId),
    addOns: addOnsForSale(db, eventId),
    dates: tree
      .filter((d) => d.isLive)
      .map((d) => ({
        id: d.id,
        dateOfEvent: d.dateOfEvent,
        slots: d.slots.map(({ tickets, ...slot }) => ({ ...slot, ticketTypes: tickets })),
      })),
  };
}

/**
 * Inserts the fallback date, slot and ticket types with ids derived from the event id, ignoring rows
 * that exist: calling it twice (or from two requests at once) creates them once.
 */
export function ensureFallbackTicketTypes(
  db: Db,
  event: { id: string; startTime: string; endTime: string | null },
): Promise<void> {
  const dateId = `${event.id}-fallback-date`;
  const slotId = `${event.id}-fallback-slot`;
  const end =
    event.endTime && event.endTime > event.startTime
      ? event.endTime
      : new Date(new Date(event.startTime).getTime() + FALLBACK_SLOT_MS).toISOString();
  return writeTransaction(db, (tx) => {
    tx.insert(eventDates)
      .values({ id: dateId, eventId: event.id, dateOfEvent: event.startTime, isLive: true })
      .onConflictDoNothing()
      .run();
    tx.insert(slots)
      .values({ id: slotId, eventDateId: dateId, startTime: event.startTime, endTime: end })
      .onConflictDoNothing()
      .run();
    FALLBACK_TICKET_TYPES.forEach((type, position) => {
      tx.insert(ticketTypes)
        .values({
          id: `${event.id}-${type.key}`,
          slotId,
          name: type.name,
          pricePaise: rupeesToPaise(type.price),
          personAllowedPerTicket: 1,
          description: '',
          isRefundable: true,
          totalTickets: type.total,
          availableTickets: type.total,
          isLive: true,
          benefits: [],
          position,
        })
        .onConflictDoNothing()
        .run();
    });
  });
}

function waitingRoomOn(sqlite: AppDeps['sqlite'], eventId: string): TicketOptions['waitingRoom'] {
  const room = readWaitingRoom(sqlite, eventId);
  return room?.enabled ? { opensAt: room.opensAt } : null;
}
