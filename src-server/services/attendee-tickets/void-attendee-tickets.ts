import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { gateTicketId } from '../../../shared/ticket-token-format.ts';
import { changes, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';

/** A booking's attendee tickets as a part cancellation sees them (ADR 0043, ADR 0046). */
export interface AttendeeTicketsOfBooking {
  /** Per ticket type with live attendee tickets: each live ticket and whether anybody ever walked in on it. */
  live: Map<string, { position: number; used: boolean }[]>;
  /** People the booking's own QR ever let in (its count less the attendees', or the gate's log when more). */
  admittedOnBookingQr: number;
}

/**
 * Reads which of a booking's attendee tickets were used at the gate. Each attendee ticket records its own
 * check-ins, so whether a cancelled one was used is known per ticket, never guessed from the booking's
 * count: a ticket is used when its count is above zero or the gate's log has an admission on its QR (an
 * undone or offline-excess admission counts, as it does for the booking's QR: someone may have walked in).
 * What remains of the booking's count is the people its own QR let in, for the tickets without their own.
 */
export function* attendeeTicketsOfBookingSteps(
  tx: WriteTx,
  booking: { id: string; numberOfUserCheckedIn: number },
): Steps<AttendeeTicketsOfBooking> {
  const { attendeeTickets, gateScans } = tablesOf(tx);
  const tickets = yield* rows(
    tx
      .select({
        ticketTypeId: attendeeTickets.ticketTypeId,
        position: attendeeTickets.position,
        admitted: attendeeTickets.admitted,
        voidedAt: attendeeTickets.voidedAt,
      })
      .from(attendeeTickets)
      .where(eq(attendeeTickets.bookingId, booking.id)),
  );
  const logged = yield* rows(
    tx
      .select({
        ticketId: gateScans.ticketId,
        persons: sql<number>`coalesce(sum(${gateScans.persons} + ${gateScans.excess}), 0)`,
      })
      .from(gateScans)
      .where(and(eq(gateScans.bookingId, booking.id), eq(gateScans.kind, 'admit')))
      .groupBy(gateScans.ticketId),
  );
  const loggedBy = new Map(logged.map((l) => [l.ticketId, Number(l.persons)]));
  const live = new Map<string, { position: number; used: boolean }[]>();
  let admittedOnOwnQrs = 0;
  for (const r of tickets) {
    admittedOnOwnQrs += r.admitted;
    if (r.voidedAt) continue;
    const id = gateTicketId(booking.id, { ticketTypeId: r.ticketTypeId, position: r.position });
    const used = r.admitted > 0 || (loggedBy.get(id) ?? 0) > 0;
    live.set(r.ticketTypeId, [...(live.get(r.ticketTypeId) ?? []), { position: r.position, used }]);
  }
  const admittedOnBookingQr = Math.max(
    booking.numberOfUserCheckedIn - admittedOnOwnQrs,
    loggedBy.get(null) ?? 0,
  );
  return { live, admittedOnBookingQr };
}

/**
 * The attendee tickets a part cancellation of `quantity` tickets of a type takes: the highest positions
 * nobody was admitted with first, then (only if too few are unused) the highest used ones, and how many of
 * them were used (their seats stay off sale: someone walked in on them).
 */
export function chooseAttendeeTickets(
  live: readonly { position: number; used: boolean }[],
  quantity: number,
): { positions: number[]; used: number } {
  const chosen = [...live]
    .sort((a, b) => Number(a.used) - Number(b.used) || b.position - a.position)
    .slice(0, quantity);
  return {
    positions: chosen.map((r) => r.position).sort((a, b) => a - b),
    used: chosen.filter((r) => r.used).length,
  };
}

/**
 * Voids the attendee tickets a part cancellation took off the booking (ADR 0043, ADR 0046), as
 * `chooseAttendeeTickets` chose them. Their QRs are refused from then on ("Cancelled"); the tickets the
 * buyer keeps stay as they were.
 */
export function* voidAttendeeTicketsSteps(
  tx: WriteTx,
  bookingId: string,
  voided: readonly { ticketTypeId: string; positions: number[] }[],
  now: Date,
): Steps<void> {
  const { attendeeTickets } = tablesOf(tx);
  for (const line of voided) {
    if (line.positions.length === 0) continue;
    yield* changes(
      tx
        .update(attendeeTickets)
        .set({ voidedAt: now.toISOString() })
        .where(
          and(
            eq(attendeeTickets.bookingId, bookingId),
            eq(attendeeTickets.ticketTypeId, line.ticketTypeId),
            inArray(attendeeTickets.position, line.positions),
            isNull(attendeeTickets.voidedAt),
          ),
        ),
    );
  }
}
