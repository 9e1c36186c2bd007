import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../src-server/db/schema/accounts.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { setGateStaff } from '../../src-server/services/tickets/gate-staff.ts';
import { signTicketToken, verifyTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { createBooking } from '../helpers/bookings.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

type CheckInAnswer = {
  outcome: 'admitted' | 'refused';
  reason?: string;
  message: string;
  ticket?: {
    bookingId: string;
    numberOfUserCheckedIn: number;
    totalUserAllowed: number;
    lastCheckInAt: string | null;
  };
};

describe('checking tickets in at the gate', () => {
  let t: TestApp;
  let staff: ReturnType<typeof createSignedInUser>;
  let buyer: ReturnType<typeof createSignedInUser>;

  beforeEach(() => {
    t = createTestApp();
    staff = createSignedInUser(t, { email: 'gate@example.com' });
    expect(setGateStaff(t.deps.db, ' Gate@Example.com ', true, t.clock.now())).toBe(true);
    buyer = createSignedInUser(t);
  });
  afterEach(() => t.close());

  const checkIn = async (token: string, persons?: number, cookie = staff.cookie) => {
    const res = await callProcedure(t, 'mutation', 'bookings.checkIn', { token, persons }, { cookie });
    return { ...res, answer: res.data as CheckInAnswer };
  };

  it('round-trips the token the owner’s ticket carries, and admits with it', async () => {
    const { bookingId } = createBooking(t, { userId: buyer.userId, quantity: 1, personAllowedPerTicket: 1 });
    const ticket = await callProcedure(t, 'query', 'bookings.byId', { bookingId }, { cookie: buyer.cookie });
    const token = (ticket.data as { qrToken: string }).qrToken;
    expect(token.startsWith(`${bookingId}.`)).toBe(true);
    expect(verifyTicketToken(t.deps.appSecret, token)).toBe(bookingId);

    const { answer } = await checkIn(token);
    expect(answer.outcome).toBe('admitted');
    expect(answer.ticket).toMatchObject({ bookingId, numberOfUserCheckedIn: 1, totalUserAllowed: 1 });
  });

  it('counts entries up to totalUserAllowed, then refuses and says when it was used', async () => {
    // 2 tickets × 2 people each = 4 entries.
    const { bookingId } = createBooking(t, { userId: buyer.userId });
    const token = signTicketToken(t.deps.appSecret, bookingId);

    const first = await checkIn(token);
    expect(first.answer).toMatchObject({
      outcome: 'admitted',
      message: 'Admitted 1 person: 1 of 4 checked in',
    });
    t.clock.advance(60_000);
    const group = await checkIn(token, 2);
    expect(group.answer).toMatchObject({
      outcome: 'admitted',
      message: 'Admitted 2 people: 3 of 4 checked in',
    });

    const tooMany = await checkIn(token, 2);
    expect(tooMany.answer).toMatchObject({
      outcome: 'refused',
      reason: 'not-enough-entries',
      message: 'Only 1 of 4 entries left on this ticket',
    });

    t.clock.set(new Date('2026-12-05T13:45:00.000Z'));
    const last = await checkIn(token);
    expect(last.answer.outcome).toBe('admitted');

    const row = t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
    expect(row).toMatchObject({
      isCheckIn: true,
      numberOfUserCheckedIn: 4,
      lastCheckInAt: '2026-12-05T13:45:00.000Z',
    });

    t.clock.advance(10 * 60_000);
    const again = await checkIn(token);
    expect(again.answer).toMatchObject({
      outcome: 'refused',
      reason: 'fully-used',
      message: 'Already used: all 4 entries were checked in, the last at 05 Dec 2026, 7:15 PM (India time)',
      ticket: { numberOfUserCheckedIn: 4, lastCheckInAt: '2026-12-05T13:45:00.000Z' },
    });
    // The refusal changed nothing.
    expect(t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()).toEqual(row);
  });

  it('never admits more people than the ticket allows when gates scan it at the same moment', async () => {
    const { bookingId } = createBooking(t, { userId: buyer.userId }); // 4 entries
    const token = signTicketToken(t.deps.appSecret, bookingId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => checkIn(token)));
    expect(answers.filter((a) => a.answer.outcome === 'admitted')).toHaveLength(4);
    const row = t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
    expect(row.numberOfUserCheckedIn).toBe(4);
  });

  it('refuses a forged, altered, foreign-secret or unknown code without revealing any booking', async () => {
    const { bookingId } = createBooking(t, { userId: buyer.userId });
    const token = signTicketToken(t.deps.appSecret, bookingId);
    const alteredSignature = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const alteredId = `${bookingId.slice(0, -1)}${bookingId.endsWith('x') ? 'y' : 'x'}${token.slice(bookingId.length)}`;
    const otherSecret = signTicketToken('a-completely-different-secret-0123456789', bookingId);
    const unknownBooking = signTicketToken(t.deps.appSecret, 'bk_does_not_exist');
    for (const bad of [alteredSignature, alteredId, otherSecret, unknownBooking, bookingId, 'hello']) {
      const { status, answer } = await checkIn(bad);
      expect(status).toBe(200);
      expect(answer).toEqual({
        outcome: 'refused',
        reason: 'invalid',
        message: 'Invalid ticket: this code was not issued by Jalsa',
      });
    }
    const row = t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
    expect(row).toMatchObject({ isCheckIn: false, numberOfUserCheckedIn: 0, lastCheckInAt: null });
  });

  it('is staff only: ordinary users get NOT_FOUND and signed-out callers UNAUTHORIZED', async () => {
    const { bookingId } = createBooking(t, { userId: buyer.userId });
    const token = signTicketToken(t.deps.appSecret, bookingId);
    const ordinary = await checkIn(token, 1, buyer.cookie);
    expect(ordinary.status).toBe(404);
    expect(ordinary.body.error?.data.code).toBe('NOT_FOUND');
    const signedOut = await callProcedure(t, 'mutation', 'bookings.checkIn', { token });
    expect(signedOut.body.error?.data.code).toBe('UNAUTHORIZED');
    const row = t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
    expect(row.numberOfUserCheckedIn).toBe(0);

    // Revoking takes the right away again; an unknown address changes nothing.
    expect(setGateStaff(t.deps.db, 'gate@example.com', false, t.clock.now())).toBe(true);
    expect((await checkIn(token)).body.error?.data.code).toBe('NOT_FOUND');
    expect(setGateStaff(t.deps.db, 'nobody@example.com', true, t.clock.now())).toBe(false);
    expect(t.deps.db.select({ n: users.id }).from(users).where(eq(users.isStaff, true)).all()).toEqual([]);
  });

  it('rejects a person count outside 1..100 with the schema’s message', async () => {
    const { bookingId } = createBooking(t, { userId: buyer.userId });
    const res = await checkIn(signTicketToken(t.deps.appSecret, bookingId), 0);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe('Admit at least 1 person');
  });
});
