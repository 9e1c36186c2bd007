import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { ADD_ON_MESSAGES } from '../../../shared/add-on-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';

/** One add-on line of a booking, as the buyer, the organiser and gate staff see it. */
export interface BookedAddOn {
  id: string;
  name: string;
  variantName: string;
  quantity: number;
  totalPaise: number;
  givenAt: string | null;
}

/** The add-ons of some bookings (My Bookings, the ticket page, the gate, the orders export). */
export function addOnsOfBookings(db: DbOrTx, bookingIds: string[]): Map<string, BookedAddOn[]> {
  return runSync(addOnsOfBookingsSteps(db, bookingIds));
}

/** `addOnsOfBookings` written once for both engines (ADR 0045): the confirmation's mail reads them. */
export function* addOnsOfBookingsSteps(db: DbOrTx, bookingIds: string[]): Steps<Map<string, BookedAddOn[]>> {
  const out = new Map<string, BookedAddOn[]>();
  if (bookingIds.length === 0) return out;
  const { bookingAddOns } = tablesOf(db);
  const lines = yield* rows(
    db
      .select({
        bookingId: bookingAddOns.bookingId,
        id: bookingAddOns.id,
        name: bookingAddOns.name,
        variantName: bookingAddOns.variantName,
        quantity: bookingAddOns.quantity,
        totalPaise: bookingAddOns.totalPaise,
        givenAt: bookingAddOns.givenAt,
      })
      .from(bookingAddOns)
      .where(inArray(bookingAddOns.bookingId, bookingIds))
      .orderBy(asc(bookingAddOns.bookingId), asc(bookingAddOns.position)),
  );
  for (const { bookingId, ...line } of lines) {
    const list = out.get(bookingId) ?? [];
    list.push(line);
    out.set(bookingId, list);
  }
  return out;
}

/**
 * The labels of some bookings' add-ons, for the gate's ticket list (only bookings that have some). Read in
 * chunks: a full download lists a slot's every booking.
 */
export function addOnLabelsOf(db: DbOrTx, bookingIds: string[]): Map<string, string[]> {
  return runSync(addOnLabelsOfSteps(db, bookingIds));
}

/** `addOnLabelsOf` written once for both engines (ADR 0045): the gate's sync reads them. */
export function* addOnLabelsOfSteps(db: DbOrTx, bookingIds: string[]): Steps<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < bookingIds.length; i += 500) {
    for (const [id, lines] of yield* addOnsOfBookingsSteps(db, bookingIds.slice(i, i + 500))) {
      out.set(id, lines.map(addOnLabel));
    }
  }
  return out;
}

/** "2 × T-shirt (M)": one line's label, for lists and the CSV. */
export function addOnLabel(line: Pick<BookedAddOn, 'name' | 'variantName' | 'quantity'>): string {
  return `${line.quantity} × ${line.name}${line.variantName ? ` (${line.variantName})` : ''}`;
}

/** What gate staff see of an add-on line: what to hand over, never what it cost (no takings at the gate). */
export type GateAddOn = Omit<BookedAddOn, 'totalPaise'>;

/** The gate: a booking's add-ons to hand over, for the event's gate staff (another event's: not found). */
export function gateAddOns(db: Db, eventId: string, bookingId: string): Promise<GateAddOn[]> {
  return runStatements(db, function* (db) {
    yield* refuseOtherEventSteps(db, eventId, bookingId);
    return ((yield* addOnsOfBookingsSteps(db, [bookingId])).get(bookingId) ?? []).map(forGate);
  });
}

function forGate({ totalPaise: _paid, ...line }: BookedAddOn): GateAddOn {
  return line;
}

/**
 * Gate staff hand an add-on over: marked given once, with who and when, in the booking's history.
 * Idempotent: a second tap (or a second device) finds it given and changes nothing. Needs the server:
 * the offline scan data lists add-ons read-only.
 */
export function markAddOnGiven(
  db: Db,
  input: { eventId: string; bookingId: string; lineId: string; staffUserId: string; gate: string },
  now: Date,
): Promise<GateAddOn> {
  return runnerFor(db).write(function* (tx) {
    const { bookingAddOns } = tablesOf(tx);
    yield* refuseOtherEventSteps(tx, input.eventId, input.bookingId);
    const given = yield* row(
      tx
        .update(bookingAddOns)
        .set({ givenAt: now.toISOString(), givenByUserId: input.staffUserId })
        .where(
          and(
            eq(bookingAddOns.id, input.lineId),
            eq(bookingAddOns.bookingId, input.bookingId),
            isNull(bookingAddOns.givenAt),
          ),
        )
        .returning(),
    );
    if (given) {
      yield* recordBookingEventSteps(tx, {
        bookingId: input.bookingId,
        kind: 'add_on_given',
        actor: 'gate',
        actorUserId: input.staffUserId,
        at: now,
        // What apart from how many: the booking page writes "1 × T-shirt (M)" from the two.
        details: {
          name: `${given.name}${given.variantName ? ` (${given.variantName})` : ''}`,
          quantity: given.quantity,
          gate: input.gate,
        },
      });
    }
    const line = (yield* addOnsOfBookingsSteps(tx, [input.bookingId]))
      .get(input.bookingId)
      ?.find((l) => l.id === input.lineId);
    if (!line) throw notFound(ADD_ON_MESSAGES.lineNotFound);
    return forGate(line);
  });
}

function* refuseOtherEventSteps(db: DbOrTx, eventId: string, bookingId: string): Steps<void> {
  const { bookings } = tablesOf(db);
  const booking = yield* row(
    db
      .select({ eventId: bookings.eventId, status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, bookingId)),
  );
  if (booking?.eventId !== eventId || booking.status !== 'confirmed') {
    throw notFound(ADD_ON_MESSAGES.bookingNotFound);
  }
}
