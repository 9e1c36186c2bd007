import { and, eq } from 'drizzle-orm';
import { rupeesToPaise } from '../../../shared/money.ts';
import type { CheckoutTaxes } from '../../../shared/pricing.ts';
import type { TicketType } from '../../../shared/ticket-type.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { isPostgres, readSnapshot, runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { unlockedTypeIdsSteps } from '../access-codes/hidden-types.ts';
import { addOnsForSaleSteps, type BuyerAddOn } from '../add-ons/list-add-ons.ts';
import { type EventDateDetail, ticketTreeSteps } from '../catalog/ticket-tree.ts';
import { limitByQuotasSteps } from '../quotas/limit-by-quotas.ts';
import { readWaitingRoom, type WaitingRoomSwitch } from '../waiting-room/read-waiting-room.ts';
import { checkoutTaxesSteps } from './checkout-taxes.ts';

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
  const { db } = deps;
  // The same statements, in the same order, on each engine, in one snapshot: the tree shown and the whole
  // tree must agree. Read statement by statement, another request's fallback (or an organiser's first
  // type) committed between the two reads found no types shown yet types in all, and answered no dates.
  // Only an event with no types at all writes its fallback, after this read.
  const first = await readSnapshot(db, function* (db): Steps<{
    event: TicketEvent;
    shown: ReadonlySet<string>;
    options: OptionsOfTree | null;
  }> {
    const event = yield* row(
      db
        .select({
          id: events(db).id,
          name: events(db).name,
          eventLocationText: events(db).eventLocationText,
          city: events(db).city,
          posterUrl: events(db).posterUrl,
          imagesUrls: events(db).imagesUrls,
          startTime: events(db).startTime,
          endTime: events(db).endTime,
          platformFeeRate: events(db).platformFeeRate,
        })
        .from(events(db))
        .where(and(eq(events(db).id, eventId), eq(events(db).status, 'published'))),
    );
    if (!event) throw notFound('Event not found');
    // Hidden types only with the access code that unlocks them (ADR 0038); the fallback is for an event
    // with no types at all, hidden ones included.
    const shown = yield* unlockedTypeIdsSteps(db, eventId, accessCode, deps.clock.now());
    const tree = yield* ticketTreeSteps(db, eventId, shown);
    if (!hasTypes(tree) && !hasTypes(yield* ticketTreeSteps(db, eventId, 'all'))) {
      return { event, shown, options: null };
    }
    return { event, shown, options: yield* optionsSteps(db, deps, event.id, tree) };
  });
  const { event, shown } = first;
  let options = first.options;
  if (!options) {
    await ensureFallbackTicketTypes(db, event);
    options = await runStatements(db, function* (db): Steps<OptionsOfTree> {
      return yield* optionsSteps(db, deps, event.id, yield* ticketTreeSteps(db, eventId, shown));
    });
  }

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
    ...options,
  };
}

const events = (db: DbOrTx) => tablesOf(db).events;

type TicketEvent = Omit<TicketOptions['event'], 'imageUrl'> & { imagesUrls: string[] };
type OptionsOfTree = Omit<TicketOptions, 'event'>;

const hasTypes = (tree: EventDateDetail[]) =>
  tree.some((date) => date.slots.some((s) => s.tickets.length > 0));

/** Everything after the tree is read: its seats limited by quotas, the taxes, the room, the add-ons. */
function* optionsSteps(
  db: DbOrTx,
  deps: Pick<AppDeps, 'sqlite' | 'env'>,
  eventId: string,
  tree: EventDateDetail[],
): Steps<OptionsOfTree> {
  const limited = yield* limitByQuotasSteps(db, tree);
  return {
    taxes: yield* checkoutTaxesSteps(db, deps.env, eventId),
    waitingRoom: waitingRoomOn(yield* waitingRoomSteps(db, deps.sqlite, eventId)),
    addOns: yield* addOnsForSaleSteps(db, eventId),
    dates: limited
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
  return runnerFor(db).write(function* (tx) {
    const { eventDates, slots, ticketTypes } = tablesOf(tx);
    yield* changes(
      tx
        .insert(eventDates)
        .values({ id: dateId, eventId: event.id, dateOfEvent: event.startTime, isLive: true })
        .onConflictDoNothing(),
    );
    yield* changes(
      tx
        .insert(slots)
        .values({ id: slotId, eventDateId: dateId, startTime: event.startTime, endTime: end })
        .onConflictDoNothing(),
    );
    for (const [position, type] of FALLBACK_TICKET_TYPES.entries()) {
      yield* changes(
        tx
          .insert(ticketTypes)
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
          .onConflictDoNothing(),
      );
    }
  });
}

function waitingRoomOn(room: WaitingRoomSwitch | undefined): TicketOptions['waitingRoom'] {
  return room?.enabled ? { opensAt: room.opensAt } : null;
}

/**
 * The event's waiting room as stored: on SQLite the statement every Proceed's admission check uses
 * (read-waiting-room.ts, prepared once), on PostgreSQL the same primary-key read through its tables.
 */
function* waitingRoomSteps(
  db: DbOrTx,
  sqlite: AppDeps['sqlite'],
  eventId: string,
): Steps<WaitingRoomSwitch | undefined> {
  if (!isPostgres(db)) return readWaitingRoom(sqlite, eventId);
  const { waitingRooms } = tablesOf(db);
  return yield* row(
    db
      .select({ enabled: waitingRooms.enabled, opensAt: waitingRooms.opensAt })
      .from(waitingRooms)
      .where(eq(waitingRooms.eventId, eventId)),
  );
}
