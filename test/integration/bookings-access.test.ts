import ical from 'node-ical';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { createBookingOn } from '../helpers/bookings.ts';
import { type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import { pdfPageCount, pdfPageText } from '../helpers/pdf-text.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

describe('My Bookings, tickets and ticket files are for the owner only', () => {
  let t: TestApp;
  let owner: Person;
  let stranger: Person;
  let bookingId: string;

  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    owner = await signedInUser(t, { name: 'Asha Rao' });
    stranger = await signedInUser(t, { name: 'Someone Else' });
    bookingId = (await createBookingOn(t, { userId: owner.userId, userName: 'Asha Rao' })).bookingId;
  });
  afterEach(async () => {
    await t.close();
  });

  it('lists only the signed-in person’s bookings, newest first, with the ticket fields', async () => {
    t.clock.advance(60_000);
    const newer = await createBookingOn(t, { userId: owner.userId, quantity: 1, personAllowedPerTicket: 1 });
    await createBookingOn(t, { userId: stranger.userId });

    const { status, data } = await callProcedure(t, 'query', 'bookings.mine', undefined, {
      cookie: owner.cookie,
    });
    expect(status).toBe(200);
    const list = data as { id: string; eventName: string; ticketCount: number; qrToken: string }[];
    expect(list.map((b) => b.id)).toEqual([newer.bookingId, bookingId]);
    expect(list[1]).toMatchObject({
      eventLocation: 'NSCI Dome, Worli, Mumbai',
      posterUrl: '/images/demo/arijit-poster.jpg',
      imageUrl: '/images/demo/arijit-1.jpg',
      ticketSlot: '2026-12-05T13:30:00.000Z',
      ticketTypeName: 'Gold Circle',
      ticketCount: 2,
      totalUserAllowed: 4,
      userName: 'Asha Rao',
    });
    expect(readTicketToken(t.deps.appSecret, list[1]!.qrToken)).toEqual({ bookingId, generation: 0 });
    // Nothing beyond the explicit field list (no payment ids, no contact details).
    expect(Object.keys(list[1]!)).not.toContain('paymentId');
    expect(Object.keys(list[1]!)).not.toContain('userEmail');
    // The ticket page reads the same fields for one booking.
    const one = await callProcedure(t, 'query', 'bookings.byId', { bookingId }, { cookie: owner.cookie });
    expect(one.data).toStrictEqual(list[1]);
  });

  it('gives a stranger an empty list and a signed-out visitor no data', async () => {
    const strangerList = await callProcedure(t, 'query', 'bookings.mine', undefined, {
      cookie: stranger.cookie,
    });
    expect(strangerList.data).toEqual([]);
    const signedOut = await callProcedure(t, 'query', 'bookings.mine');
    expect(signedOut.body.error?.data.code).toBe('UNAUTHORIZED');
    expect(signedOut.data).toBeUndefined();
  });

  it('shows a booking to its owner by id', async () => {
    const { status, data } = await callProcedure(
      t,
      'query',
      'bookings.byId',
      { bookingId },
      { cookie: owner.cookie },
    );
    expect(status).toBe(200);
    expect(data).toMatchObject({ id: bookingId, eventName: expect.stringContaining('Arijit Singh Live') });
  });

  it.each([
    ['another user', () => stranger.cookie],
    ['a signed-out visitor', () => undefined],
  ])('answers %s with not found on bookings.byId, never the data', async (_who, cookieOf) => {
    const res = await callProcedure(t, 'query', 'bookings.byId', { bookingId }, { cookie: cookieOf() });
    expect(res.status).toBe(404);
    expect(res.body.error?.data.code).toBe('NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toContain('Asha');
    const unknown = await callProcedure(
      t,
      'query',
      'bookings.byId',
      { bookingId: 'bk_nope' },
      { cookie: cookieOf() },
    );
    expect(unknown.body.error).toEqual(res.body.error);
  });

  it.each(['pdf', 'ics'])(
    'answers another user, a signed-out visitor and an unknown id alike on the .%s download',
    async (kind) => {
      for (const [cookie, id] of [
        [stranger.cookie, bookingId],
        [undefined, bookingId],
        [owner.cookie, 'bk_nope'],
      ] as const) {
        const res = await t.request(`/api/tickets/${id}.${kind}`, { headers: cookie ? { cookie } : {} });
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toContain('application/json');
        const text = await res.text();
        expect(text).not.toContain('Asha');
        expect(text).not.toContain('Arijit');
      }
    },
  );

  it('downloads the PDF ticket for the owner: one page with the booking’s details and Booking ID', async () => {
    const res = await t.request(`/api/tickets/${bookingId}.pdf`, { headers: { cookie: owner.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`jalsa-ticket-${bookingId}.pdf`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfPageText(pdf);
    for (const expected of [
      bookingId,
      'Arijit Singh Live',
      '5 December 2026',
      '7:00 PM - 11:00 PM (India time)',
      'NSCI Dome, Worli, Mumbai',
      'Asha Rao',
      'Gold Circle x 2',
      'Rs. 2,117.98',
    ]) {
      expect(text).toContain(expected);
    }
    // The QR image is embedded.
    expect(pdf.toString('latin1')).toContain('/Subtype /Image');
  });

  it('downloads the calendar entry for the owner with the slot’s UTC start and end', async () => {
    const res = await t.request(`/api/tickets/${bookingId}.ics`, { headers: { cookie: owner.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const parsed = ical.sync.parseICS(await res.text());
    const entries = Object.values(parsed).filter((c) => c?.type === 'VEVENT');
    expect(entries).toHaveLength(1);
    const entry = entries[0] as ical.VEvent;
    expect(entry.start.toISOString()).toBe('2026-12-05T13:30:00.000Z');
    expect(entry.end?.toISOString()).toBe('2026-12-05T17:30:00.000Z');
    expect(String(entry.summary)).toContain('Arijit Singh Live');
    expect(String(entry.location)).toBe('NSCI Dome, Worli, Mumbai');
    expect(String(entry.url)).toBe(`http://localhost/ticket/${bookingId}`);
  });
});
