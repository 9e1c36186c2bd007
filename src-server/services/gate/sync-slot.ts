import { and, asc, eq, gt, lte, ne, sql } from 'drizzle-orm';
import type { GateElsewhere, GateFeedEntry, GateListTicket } from '../../../shared/gate-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { isPostgres, readSnapshot } from '../../db/engine/reads.ts';
import { row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { notFound } from '../../errors.ts';
import { addOnLabelsOfSteps } from '../add-ons/booking-add-ons.ts';
import { attendeeGateListSteps, phoneEndOf } from '../attendee-tickets/attendee-gate-list.ts';
import { ticketPublicKey } from '../tickets/ticket-token.ts';
import { findGateSlot } from './gate-events.ts';
import {
  type DoubleEntry,
  listDoubleEntriesSteps,
  type SlotCounters,
  slotCountersSteps,
} from './slot-counters.ts';

/** The most feed entries one sync returns; a device with more to catch up asks again from the new cursor. */
export const FEED_PAGE = 2_000;

export interface GateSync {
  slot: { id: string; start: string; end: string };
  /** Ed25519 public key (raw, base64url) that tickets are verified with on the device. */
  publicKey: string;
  /**
   * Tickets added since `ticketCursor` (all of them when it was 0) and, in a delta, the cancelled ones
   * already below it, with their counts as of `feedCursor`.
   */
  tickets: GateListTicket[];
  /**
   * The event's bookings in its other slots (added since `ticketCursor`), grouped by slot start: so that
   * offline the device can name the slot of a ticket it does not admit, and tell another event's ticket
   * (signed, but a booking of none of this event's slots) from them.
   */
  elsewhere: GateElsewhere[];
  ticketCursor: number;
  /** Admissions and undos since `feedCursor`, oldest first. */
  feed: GateFeedEntry[];
  feedCursor: number;
  /** True when the feed was cut at FEED_PAGE: sync again at once. */
  more: boolean;
  counters: SlotCounters;
  doubleEntries: DoubleEntry[];
}

/**
 * What a gate device needs to decide scans on its own: the slot's ticket list (whole, or what is new
 * since its cursor), the admissions other devices made since its feed cursor, the counters and the
 * double entries. One read: the tickets' admitted counts and the feed cursor describe the same moment,
 * so a device applies the feed and then the tickets (docs/decisions/0022).
 */
export async function syncSlot(
  db: Db,
  appSecret: string,
  eventId: string,
  input: { slotId: string; ticketCursor: number; feedCursor: number },
): Promise<GateSync> {
  const slot = await findGateSlot(db, eventId, input.slotId);
  if (!slot) throw notFound('No such slot at this event');
  const read = (tx: DbOrTx) => syncSlotSteps(tx, appSecret, eventId, slot, input);
  // PostgreSQL: one read-only REPEATABLE READ snapshot, the counts and the cursors of one moment.
  if (isPostgres(db)) return readSnapshot(db, read);
  // Only reads, but in one transaction (every write transaction goes through writeTransaction): the counts
  // and the cursors must describe one moment, and IMMEDIATE keeps a write from landing between them.
  return writeTransaction(db, (tx) => runSync(read(tx)));
}

/**
 * The sync's reads, written once for both engines (ADR 0045). The cursors must be orders in which rows
 * commit, or a device that synced past a number would never receive a row given a smaller one that
 * committed later. On SQLite the single writer makes the scan's `seq` and the booking's rowid that order.
 * On PostgreSQL identities and insertion order are not: there the cursors are `feed_position` and
 * `gate_list_position`, numbered at commit under their slot's or event's gate_positions row
 * (migrations-pg, gate_positions).
 */
function* syncSlotSteps(
  tx: DbOrTx,
  appSecret: string,
  eventId: string,
  slot: GateSync['slot'],
  input: { slotId: string; ticketCursor: number; feedCursor: number },
): Steps<GateSync> {
  const { bookings, gateScans } = tablesOf(tx);
  const postgres = isPostgres(tx);
  // The feed's order: seq on SQLite; the position given at commit on PostgreSQL, never null once committed.
  const seq = sql<number>`${postgres ? gateScans.feedPosition : gateScans.seq}`;
  if (input.ticketCursor === 0) {
    // The whole list: its counts already hold every admission, so the feed starts after the last one.
    const last = yield* row(
      tx
        .select({ seq: sql<number | null>`max(${seq})` })
        .from(gateScans)
        .where(eq(gateScans.slotId, input.slotId)),
    );
    input = { ...input, feedCursor: last?.seq ?? 0 };
  }
  const feedRows = yield* rows(
    tx
      .select({
        seq,
        scanId: gateScans.scanId,
        bookingId: gateScans.bookingId,
        kind: gateScans.kind,
        persons: gateScans.persons,
        gate: gateScans.gate,
        scannedAt: gateScans.scannedAt,
        ticketId: gateScans.ticketId,
      })
      .from(gateScans)
      .where(and(eq(gateScans.slotId, input.slotId), gt(seq, input.feedCursor)))
      .orderBy(asc(seq))
      .limit(FEED_PAGE + 1),
  );
  const more = feedRows.length > FEED_PAGE;
  if (more) feedRows.pop();
  const feed: GateFeedEntry[] = [];
  for (const r of feedRows)
    if (r.bookingId && r.persons > 0 && (r.kind === 'admit' || r.kind === 'undo'))
      feed.push([
        r.seq,
        r.scanId,
        // An attendee's admission counts on that attendee's ticket on the device (ADR 0046).
        r.ticketId ?? r.bookingId,
        r.kind === 'undo' ? -r.persons : r.persons,
        r.gate,
        r.scannedAt,
      ]);
  const feedCursor = feedRows.at(-1)?.seq ?? input.feedCursor;

  // The ticket cursor: SQLite's rowid; on PostgreSQL the position given at commit (see above).
  const rowid = postgres ? sql<number>`${bookings.gateListPosition}` : sql<number>`${bookings}.rowid`;
  const listColumns = {
    rowid,
    id: bookings.id,
    name: bookings.userName,
    phoneEnd: phoneEndOf(tx, bookings.userPhone),
    type: postgres
      ? sql<string>`${bookings.ticketType}->>'name'`
      : sql<string>`json_extract(${bookings.ticketType}, '$.name')`,
    allowed: bookings.totalUserAllowed,
    admitted: bookings.numberOfUserCheckedIn,
    status: bookings.status,
    generation: bookings.transferCount,
  };
  const ticketRows = yield* rows(
    tx
      .select(listColumns)
      .from(bookings)
      .where(and(eq(bookings.slotId, input.slotId), gt(rowid, input.ticketCursor)))
      .orderBy(rowid),
  );
  // The cursor is a bookings rowid (one sequence for every slot), or on PostgreSQL a position among the
  // event's bookings: the other slots' rows share it, and bookings_event_rowid_idx (SQLite) or
  // bookings_event_gate_list_idx (PostgreSQL) reads them from the cursor on.
  const otherRows = yield* rows(
    tx
      .select({ rowid, id: bookings.id, start: bookings.ticketSlot })
      .from(bookings)
      .where(
        and(eq(bookings.eventId, eventId), ne(bookings.slotId, input.slotId), gt(rowid, input.ticketCursor)),
      ),
  );
  let ticketCursor = Math.max(input.ticketCursor, ticketRows.at(-1)?.rowid ?? 0);
  const bySlot = new Map<string, string[]>();
  for (const r of otherRows) {
    ticketCursor = Math.max(ticketCursor, r.rowid);
    const ids = bySlot.get(r.start);
    if (ids) ids.push(r.id);
    else bySlot.set(r.start, [r.id]);
  }
  let listRows = ticketRows;
  if (input.ticketCursor > 0) {
    // A delta also carries the slot's cancelled and transferred tickets the device already holds, so a
    // cancellation or a transfer (new holder, new token generation) reaches it at the next sync, not only
    // on a full download. Stateless (no cursor for status changes): a slot's cancelled and transferred
    // bookings are few, found by bookings_slot_status_idx and bookings_slot_transferred_idx, and the device
    // skips rows it already holds as they are. When the feed was cut short, a ticket's count may include
    // admissions past the page: leave all tickets for the next page so counts and cursor stay one moment.
    const below = lte(rowid, input.ticketCursor);
    const changed = new Map(
      more
        ? []
        : [
            ...(yield* rows(
              tx
                .select(listColumns)
                .from(bookings)
                .where(and(eq(bookings.slotId, input.slotId), eq(bookings.status, 'cancelled'), below)),
            )),
            ...(yield* rows(
              tx
                .select(listColumns)
                .from(bookings)
                // A literal `> 0` (not a bound parameter), so SQLite can use the partial index.
                .where(and(eq(bookings.slotId, input.slotId), sql`${bookings.transferCount} > 0`, below)),
            )),
          ].map((r) => [r.id, r]),
    );
    listRows = more ? [] : [...changed.values(), ...ticketRows];
  }
  // Add-ons to hand over (ADR 0041), in the device's list so it can show them offline.
  const addOnLabels = yield* addOnLabelsOfSteps(
    tx,
    listRows.map((r) => r.id),
  );
  // Attendees' own tickets (ADR 0046), and what each such booking's own QR still admits.
  const attendees = yield* attendeeGateListSteps(
    tx,
    input.slotId,
    input.ticketCursor === 0 ? null : more ? [] : listRows.map((r) => r.id),
  );
  const tickets: GateListTicket[] = listRows.map((r) => {
    const rest = attendees.rest.get(r.id);
    const row: GateListTicket = [
      r.id,
      r.name,
      r.type,
      rest?.allowed ?? r.allowed,
      rest?.admitted ?? r.admitted,
      r.status === 'confirmed' ? 0 : 1,
      r.phoneEnd,
    ];
    if (r.generation > 0) row.push(r.generation);
    const addOns = addOnLabels.get(r.id);
    if (addOns) row.push(...(r.generation > 0 ? [] : [0]), addOns);
    return row;
  });
  tickets.push(...attendees.tickets);
  return {
    slot,
    publicKey: ticketPublicKey(appSecret),
    tickets,
    elsewhere: more && input.ticketCursor > 0 ? [] : [...bySlot],
    ticketCursor: more && input.ticketCursor > 0 ? input.ticketCursor : ticketCursor,
    feed,
    feedCursor,
    more,
    counters: yield* slotCountersSteps(tx, input.slotId),
    doubleEntries: yield* listDoubleEntriesSteps(tx, [input.slotId]),
  };
}
