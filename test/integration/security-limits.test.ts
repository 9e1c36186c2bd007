import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createBookingOn } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS } from '../helpers/inventory.ts';
import { pdfPageCount, pdfPageText } from '../helpers/pdf-text.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 18, item 2: free-text inputs had no maximum. A 50,000-character name was stored, and laying
 * out its ticket PDF blocked the server for about 2 s per download. Every text input now has a
 * ceiling with a message for its field, and PDFs clamp what was stored before the limits existed.
 */

const HUGE = 'q'.repeat(50_000);

describe('Text limits: an oversized field is refused with its message, never stored, never a 500', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('refuses a 50,000-character name in the checkout details, holding nothing', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const res = await callProcedure(
      t,
      'mutation',
      'payments.start',
      {
        eventId: ev.eventId,
        selectedDate: ev.dateId,
        selectedSlot: ev.slotId,
        selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 1 }],
        ticketDetails: { ...DETAILS, name: HUGE },
      },
      { cookie: buyer.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors).toEqual({
      ticketDetails: 'Name must be at most 100 characters',
    });
    const { holds } = tablesOf(t.deps.db);
    expect((await t.deps.db.select({ n: count() }).from(holds))[0]?.n).toBe(0);
  });

  it('refuses a 50,000-character e-mail in the checkout details', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const res = await callProcedure(
      t,
      'mutation',
      'payments.start',
      {
        eventId: ev.eventId,
        selectedDate: ev.dateId,
        selectedSlot: ev.slotId,
        selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 1 }],
        ticketDetails: { ...DETAILS, email: `${HUGE}@example.com` },
      },
      { cookie: buyer.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors).toEqual({
      ticketDetails: 'Email must be at most 254 characters',
    });
  });

  it('refuses a 50,000-character name at sign-up and in the profile', async () => {
    const signUp = await callProcedure(t, 'mutation', 'auth.signUp', {
      name: HUGE,
      email: 'long-name@example.com',
      mobile: '',
      password: 'secret123',
      confirmPassword: 'secret123',
      acceptTerms: true,
    });
    expect(signUp.status).toBe(400);
    expect(signUp.body.error?.data.fieldErrors).toEqual({ name: 'Name must be at most 100 characters' });
    const { users } = tablesOf(t.deps.db);
    expect(await t.deps.db.select().from(users).where(eq(users.email, 'long-name@example.com'))).toEqual([]);

    const person = await signedInUser(t, { name: 'Asha Rao' });
    const profile = await callProcedure(
      t,
      'mutation',
      'auth.updateProfile',
      { name: HUGE, phone: '', gender: '', country: '', state: '', about: '' },
      { cookie: person.cookie },
    );
    expect(profile.status).toBe(400);
    expect(profile.body.error?.data.fieldErrors).toEqual({ name: 'Name must be at most 100 characters' });
    expect(
      await t.deps.db.select({ name: users.name }).from(users).where(eq(users.id, person.userId)),
    ).toEqual([{ name: 'Asha Rao' }]);
  });

  it('refuses a 50,000-character e-mail at sign-in and a reset request with its own message', async () => {
    for (const procedure of ['auth.signIn', 'auth.requestPasswordReset']) {
      const res = await callProcedure(t, 'mutation', procedure, {
        email: `a@${'b.'.repeat(25_000)}@`,
        password: 'secret123',
      });
      expect(res.status, procedure).toBe(400);
      expect(res.body.error?.data.fieldErrors, procedure).toEqual({
        email: 'Email must be at most 254 characters',
      });
    }
  });

  it('refuses an oversized Contact Us name, address and message', async () => {
    // 10,000 each: four times 50,000 would pass the 64 KB body limit and be refused before zod.
    const long = HUGE.slice(0, 10_000);
    const res = await callProcedure(t, 'mutation', 'contact.send', {
      firstName: long,
      lastName: long,
      email: `${long}@example.com`,
      mobile: '',
      message: long,
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors).toEqual({
      firstName: 'First name must be at most 100 characters',
      lastName: 'Last name must be at most 100 characters',
      email: 'Email must be at most 254 characters',
      message: 'Message must be at most 2000 characters',
    });
    const { contactMessages } = tablesOf(t.deps.db);
    expect((await t.deps.db.select({ n: count() }).from(contactMessages))[0]?.n).toBe(0);
  });

  it('draws a stored 50,000-character name cut to 100 characters, in a real one-page PDF', async () => {
    // Written before the limits existed: the database holds whatever the old checkout accepted.
    const owner = await signedInUser(t, { name: 'Asha Rao' });
    const { bookingId } = await createBookingOn(t, { userId: owner.userId, userName: HUGE });
    const res = await t.request(`/api/tickets/${bookingId}.pdf`, { headers: { cookie: owner.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfPageText(pdf);
    expect(text).toContain(bookingId);
    expect(text).toContain('Gold Circle x 2');
    // 97 characters of the name and '...': wrapped over a few lines, so counted rather than matched.
    expect(text.match(/q/g)?.length).toBe(97);
    expect(text.replaceAll('\n', '')).toContain(`${'q'.repeat(97)}...`);
  });
});
