import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertBookingWithEvent } from '../../../test/helpers/bookings.ts';
import { TEST_CLOCK_START } from '../../../test/helpers/fixture-dates.ts';
import { type ScratchDatabase, scratchDatabase } from '../../../test/helpers/scratch-database.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { gateScans } from '../../db/schema/gate.ts';
import { signTicketToken } from '../tickets/ticket-token.ts';
import { mergeOfflineScans } from './merge-offline-scans.ts';
import { undoAdmission } from './undo-admission.ts';

const SECRET = 'merge-test-secret-0123456789abcdef0123456';
const NOW = new Date('2026-12-05T14:00:00.000Z');

describe('mergeOfflineScans', () => {
  let scratch: ScratchDatabase;
  let db: Db;
  let eventId: string;
  let slotId: string;

  beforeEach(() => {
    scratch = scratchDatabase('jalsa-merge-');
    db = scratch.database.db;
    db.insert(users)
      .values({
        id: 'staff',
        email: 's@example.com',
        name: 'Ravi',
        createdAt: NOW.toISOString(),
        updatedAt: NOW.toISOString(),
      })
      .run();
    const first = ticket(1, {});
    eventId = first.eventId;
    slotId = first.slotId;
  });
  afterEach(() => scratch.remove());

  /** A booking admitting `persons`, of the test's slot unless told (`{}`: of a new event). */
  function ticket(
    persons: number,
    where: { eventId?: string; slotId?: string; ticketSlot?: string } = { eventId, slotId },
  ) {
    // The fixture show from the test clock's start: Sat 5 Dec 2026, 7 PM India time (13:30 UTC), before NOW.
    const created = insertBookingWithEvent(db, TEST_CLOCK_START, {
      userId: 'staff',
      quantity: 1,
      personAllowedPerTicket: persons,
      ...where,
    });
    return { bookingId: created.bookingId, eventId: created.eventId, slotId: created.row.slotId as string };
  }

  const caller = () => ({ eventId, staffUserId: 'staff' });
  const admit = (bookingId: string, persons: number, scannedAt: string) => ({
    scanId: randomUUID(),
    token: signTicketToken(SECRET, bookingId),
    decision: 'admit' as const,
    persons,
    scannedAt,
  });
  const upload = (gate: string, scans: ReturnType<typeof admit>[]) =>
    mergeOfflineScans(db, SECRET, caller(), { slotId, gate, deviceId: `dev-${gate}`, scans }, NOW);
  const admitted = (bookingId: string) =>
    db.select().from(bookings).where(eq(bookings.id, bookingId)).get()?.numberOfUserCheckedIn;

  it('merges in device-time order, not upload order: the earlier admission is counted, the later one is the excess', async () => {
    const { bookingId } = ticket(1);
    const late = admit(bookingId, 1, '2026-12-05T13:40:00.000Z');
    const early = admit(bookingId, 1, '2026-12-05T13:34:00.000Z');
    const merged = await upload('North gate', [late, early]);
    // One device never lets more people in on a ticket than it admits (it decides by its own count), so
    // one upload's second person on a 1-person ticket is not believed: noted, counted nowhere (issue 35).
    expect(merged).toEqual([
      { scanId: early.scanId, status: 'new', counted: 1, excess: 0 },
      { scanId: late.scanId, status: 'new', counted: 0, excess: 0 },
    ]);
    expect(db.select().from(gateScans).where(eq(gateScans.scanId, late.scanId)).get()?.reason).toBe(
      '1 more than the ticket admits in one upload: not counted',
    );
    expect(admitted(bookingId)).toBe(1);
    // The booking's last check-in is the device's time of the counted scan, not the upload's.
    expect(db.select().from(bookings).where(eq(bookings.id, bookingId)).get()?.lastCheckInAt).toBe(
      '2026-12-05T13:34:00.000Z',
    );
    // Across uploads too: a second device's earlier scan arriving later finds the ticket used and is excess.
    const other = admit(bookingId, 1, '2026-12-05T13:30:00.000Z');
    expect(await upload('South gate', [other])).toEqual([
      { scanId: other.scanId, status: 'new', counted: 0, excess: 1 },
    ]);
    expect(admitted(bookingId)).toBe(1);
  });

  it('another slot’s or another event’s ticket that a device let in is all excess, counted on nothing', async () => {
    const otherSlot = ticket(2, { eventId, slotId: 'slot-sat-12', ticketSlot: '2026-12-12T13:30:00.000Z' });
    const otherEvent = ticket(1, {});
    const merged = await upload('North gate', [
      admit(otherSlot.bookingId, 2, '2026-12-05T13:34:00.000Z'),
      admit(otherEvent.bookingId, 1, '2026-12-05T13:35:00.000Z'),
    ]);
    expect(merged.map(({ counted, excess }) => ({ counted, excess }))).toEqual([
      { counted: 0, excess: 2 },
      { counted: 0, excess: 1 },
    ]);
    expect(admitted(otherSlot.bookingId)).toBe(0);
    expect(admitted(otherEvent.bookingId)).toBe(0);
    const rows = db
      .select({ bookingId: gateScans.bookingId, kind: gateScans.kind, reason: gateScans.reason })
      .from(gateScans)
      .orderBy(asc(gateScans.seq))
      .all();
    // The event's own booking is linked (the double entry names it); another event's is not this event's log.
    expect(rows).toEqual([
      { bookingId: otherSlot.bookingId, kind: 'admit', reason: 'Ticket for Sat 12 Dec, 7 PM slot' },
      { bookingId: null, kind: 'admit', reason: 'Ticket for another event' },
    ]);
  });

  it('undo after a merge with excess: the other device’s people stay counted; undoing the excess takes nobody off', async () => {
    const { bookingId } = ticket(2);
    const north = admit(bookingId, 2, '2026-12-05T13:34:00.000Z');
    const south = admit(bookingId, 1, '2026-12-05T13:36:00.000Z');
    await upload('North gate', [north]);
    expect(await upload('South gate', [south])).toEqual([
      { scanId: south.scanId, status: 'new', counted: 0, excess: 1 },
    ]);
    const undo = (scanId: string) =>
      undoAdmission(
        db,
        caller(),
        {
          slotId,
          gate: 'North gate',
          deviceId: 'dev-North gate',
          undoId: randomUUID(),
          scanId,
          reason: 'Wrong ticket',
        },
        NOW,
      );

    // North's two were the wrong ticket: South's one person is still inside, so the count is 1, not 0.
    expect(await undo(north.scanId)).toMatchObject({ undone: 1, ticket: { admitted: 1 } });
    expect(admitted(bookingId)).toBe(1);
    // Then South's is taken back too: nobody is left.
    expect(await undo(south.scanId)).toMatchObject({ undone: 1, ticket: { admitted: 0 } });
    await expect(undo(south.scanId)).rejects.toThrow('already undone');

    // The other way round: undoing the excess first changes no count (those people were never counted).
    const second = ticket(2);
    const a = admit(second.bookingId, 2, '2026-12-05T13:40:00.000Z');
    const b = admit(second.bookingId, 2, '2026-12-05T13:41:00.000Z');
    await upload('North gate', [a, b]);
    expect(await undo(b.scanId)).toMatchObject({ undone: 0, ticket: { admitted: 2 } });
    expect(await undo(a.scanId)).toMatchObject({ undone: 2, ticket: { admitted: 0 } });
  });
});
