import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { GateScanKind } from '../schema/gate.ts';
import { users } from './accounts.ts';
import { events } from './catalog.ts';

/**
 * The gate's append-only scan log (docs/decisions/0022-gate-tokens-and-offline-scans.md): one row per
 * scan a device made, online or uploaded after being offline, and one per undo. Rows are never updated or
 * deleted. `seq` is the cursor devices pull others' admissions from; `scan_id` is made by the device, so
 * a resent scan finds its row and is never counted twice.
 */
export const gateScans = pgTable(
  'gate_scans',
  {
    seq: integer('seq').primaryKey().generatedByDefaultAsIdentity(),
    scanId: text('scan_id').notNull().unique(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    slotId: text('slot_id').notNull(),
    /** Null when the code named no booking (forged, altered, unreadable). */
    bookingId: text('booking_id'),
    kind: text('kind').$type<GateScanKind>().notNull(),
    /** People counted on the booking by this row (admit), or taken off it again (undo). */
    persons: integer('persons').notNull().default(0),
    /**
     * People who walked in beyond what the ticket allows: an offline admission that collided with
     * another device's. A row with excess > 0 is a double entry, shown on the dashboard and gates.
     */
    excess: integer('excess').notNull().default(0),
    /** The refusal's message, or the undo's reason. */
    reason: text('reason'),
    /** For an undo: the admission it takes back. */
    undoesScanId: text('undoes_scan_id'),
    gate: text('gate').notNull(),
    deviceId: text('device_id').notNull(),
    staffUserId: text('staff_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** When the device scanned (its clock; for offline scans this is before `received_at`). */
    scannedAt: text('scanned_at').notNull(),
    receivedAt: text('received_at').notNull(),
    offline: boolean('offline').notNull().default(false),
    /** The attendee's gate ticket id (`{bookingId}+{typeId}+{position}`, ADR 0046); null: the booking's QR. */
    ticketId: text('ticket_id'),
    /**
     * PostgreSQL only (null on SQLite, whose single writer makes `seq` commit-ordered already): the scan's
     * place in its slot's feed, given at commit by the gate_scans_feed_position trigger under the slot's
     * gate_positions row, so positions commit in order with no gaps and a device's cursor never passes a
     * scan that commits later (ADR 0045).
     */
    feedPosition: integer('feed_position'),
  },
  (t) => [
    index('gate_scans_slot_seq_idx').on(t.slotId, t.seq),
    index('gate_scans_booking_idx').on(t.bookingId, t.seq),
    index('gate_scans_double_idx').on(t.slotId, t.seq).where(sql`${t.excess} > 0`),
    // The feed on PostgreSQL; partial, so SQLite's inserts (always null) do not maintain it.
    index('gate_scans_slot_feed_idx').on(t.slotId, t.feedPosition).where(sql`${t.feedPosition} is not null`),
  ],
);

/** PostgreSQL's gate orderings: see ../schema/gate.ts. */
export const gatePositions = pgTable('gate_positions', {
  scope: text('scope').primaryKey(),
  position: integer('position').notNull().default(0),
});
