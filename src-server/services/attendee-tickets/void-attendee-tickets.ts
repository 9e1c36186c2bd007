import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { changes, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';

/**
 * Voids the attendee tickets a part cancellation took off the booking (ADR 0043, ADR 0046): per ticket type,
 * `quantity` of its live tickets, the highest positions nobody was admitted with first, then (only if too
 * few are unused) the highest used ones. Their QRs are refused from then on ("Cancelled"); the tickets the
 * buyer keeps, and every QR already checked in where possible, stay as they were. Returns the positions
 * voided per type (for the order history).
 */
export function voidAttendeeTicketsIn(
  tx: DbOrTx,
  bookingId: string,
  cancelled: readonly { id: string; quantity: number }[],
  now: Date,
): { ticketTypeId: string; positions: number[] }[] {
  return runSync(voidAttendeeTicketsSteps(tx as WriteTx, bookingId, cancelled, now));
}

/** `voidAttendeeTicketsIn` written once for both engines (ADR 0045). */
export function* voidAttendeeTicketsSteps(
  tx: WriteTx,
  bookingId: string,
  cancelled: readonly { id: string; quantity: number }[],
  now: Date,
): Steps<{ ticketTypeId: string; positions: number[] }[]> {
  const { attendeeTickets } = tablesOf(tx);
  const out: { ticketTypeId: string; positions: number[] }[] = [];
  for (const line of cancelled) {
    const live = yield* rows(
      tx
        .select({ position: attendeeTickets.position, admitted: attendeeTickets.admitted })
        .from(attendeeTickets)
        .where(
          and(
            eq(attendeeTickets.bookingId, bookingId),
            eq(attendeeTickets.ticketTypeId, line.id),
            isNull(attendeeTickets.voidedAt),
          ),
        ),
    );
    if (live.length === 0) continue;
    const order = [...live].sort(
      (a, b) => Number(a.admitted > 0) - Number(b.admitted > 0) || b.position - a.position,
    );
    const positions = order.slice(0, line.quantity).map((r) => r.position);
    if (positions.length === 0) continue;
    yield* changes(
      tx
        .update(attendeeTickets)
        .set({ voidedAt: now.toISOString() })
        .where(
          and(
            eq(attendeeTickets.bookingId, bookingId),
            eq(attendeeTickets.ticketTypeId, line.id),
            inArray(attendeeTickets.position, positions),
          ),
        ),
    );
    out.push({ ticketTypeId: line.id, positions: positions.sort((a, b) => a - b) });
  }
  return out;
}
