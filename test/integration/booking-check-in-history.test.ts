import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GateScanResult } from '../../src-server/services/gate/gate-core.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { type CreatedBooking, createBookingOn } from '../helpers/bookings.ts';
import type { ConsoleWorld } from '../helpers/console-world.ts';
import { consoleWorld, signedInUser } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * The organiser's booking page shows the booking's check-ins (issue 14: "see check-in history"):
 * `eventBookings.booking` answers the counters and every admission and undo from the gate's log,
 * oldest first, with the gate, who scanned and the undo's reason.
 */
describe('eventBookings.booking: check-in history after a scan and an undo', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let booking: CreatedBooking;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    w = await consoleWorld(t);
    // 2 tickets × 2 people: 4 may enter.
    booking = await createBookingOn(t, {
      userId: (await signedInUser(t)).userId,
      eventId: w.event.eventId,
      slotId: w.event.slotId,
    });
  });
  afterEach(async () => {
    await t.close();
  });

  const where = () => ({
    eventId: w.event.eventId,
    slotId: w.event.slotId,
    gate: 'North gate',
    deviceId: 'device-1',
  });
  const history = async (cookie = w.people.owner.cookie) => {
    const res = await callProcedure(
      t,
      'query',
      'eventBookings.booking',
      { eventId: w.event.eventId, bookingId: booking.bookingId },
      { cookie },
    );
    expect(res.status).toBe(200);
    return (res.data as { checkIns: unknown }).checkIns;
  };

  it('lists the admission, then the undo with its reason, and the count goes back', async () => {
    const staff = w.people['gate staff'];
    expect(await history()).toEqual({ checkedIn: 0, allowed: 4, entries: [] });

    const scanned = await callProcedure(
      t,
      'mutation',
      'gate.scan',
      {
        ...where(),
        scanId: randomUUID(),
        token: signTicketToken(t.deps.appSecret, booking.bookingId),
        persons: 3,
      },
      { cookie: staff.cookie },
    );
    const admission = scanned.data as GateScanResult;
    expect(admission.outcome).toBe('admit');
    const scannedAt = t.clock.now().toISOString();
    const admitted = {
      kind: 'admit',
      persons: 3,
      excess: 0,
      gate: 'North gate',
      staffName: staff.name,
      scannedAt,
      offline: false,
      reason: null,
    };
    expect(await history()).toEqual({ checkedIn: 3, allowed: 4, entries: [admitted] });

    t.clock.advance(5 * 60_000);
    const undone = await callProcedure(
      t,
      'mutation',
      'gate.undo',
      { ...where(), undoId: randomUUID(), scanId: admission.scanId, reason: 'Wrong ticket scanned' },
      { cookie: staff.cookie },
    );
    expect(undone.status).toBe(200);

    const after = {
      checkedIn: 0,
      allowed: 4,
      entries: [
        admitted,
        {
          kind: 'undo',
          persons: 3,
          excess: 0,
          gate: 'North gate',
          staffName: staff.name,
          scannedAt: t.clock.now().toISOString(),
          offline: false,
          reason: 'Wrong ticket scanned',
        },
      ],
    };
    expect(await history()).toEqual(after);
    // The same history for a co-organiser and an admin (gate staff may not open the booking's page).
    expect(await history(w.people['co-organiser'].cookie)).toEqual(after);
    expect(await history(w.people.admin.cookie)).toEqual(after);
  });
});
