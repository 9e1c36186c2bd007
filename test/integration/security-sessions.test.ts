import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPostgres, runStatements, sqlRows } from '../../src-server/db/engine/reads.ts';
import { sessionIdOf } from '../../src-server/services/accounts/sessions.ts';
import { appRouter } from '../../src-server/trpc/root.ts';
import { createBookingOn } from '../helpers/bookings.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { sessionCookieFrom, signInVia, signUpVia } from './auth-helpers.ts';

/**
 * Session and CSRF rules that test/integration/auth*.test.ts do not already prove: the flags on every
 * cookie the app issues in production (not only at sign-in), a stored session id that is useless as a
 * cookie, and the Origin check on every state-changing procedure and route, which must change nothing.
 */

const DAY = 24 * 60 * 60 * 1000;
const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in' } as const;

function expectSessionCookieFlags(header: string | undefined, secure: boolean) {
  expect(header, 'a session Set-Cookie').toBeDefined();
  const attributes = header!
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
  expect(attributes).toContain('httponly');
  expect(attributes).toContain('samesite=lax');
  expect(attributes).toContain('path=/');
  expect(attributes.includes('secure')).toBe(secure);
  expect(attributes.some((a) => a.startsWith('domain='))).toBe(false);
}

const sessionSetCookie = (setCookies: string[]) => setCookies.find((c) => c.startsWith('jalsa_session='));

describe('session cookies in production', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), PRODUCTION);
  });
  afterEach(async () => {
    await t.close();
  });

  // Requests reach the production app over HTTPS behind the proxy (docs/operations.md).
  const origin = PRODUCTION.PUBLIC_URL;

  it('every Set-Cookie of the session is HttpOnly, SameSite=Lax, Path=/ and Secure, host-only', async () => {
    const person = await signUpVia(t);
    const signedIn = await signInVia(t, person.email, person.password);
    expectSessionCookieFlags(sessionSetCookie(signedIn.setCookies), true);
    const cookie = sessionCookieFrom(signedIn.setCookies)!;

    const changed = await callProcedure(
      t,
      'mutation',
      'auth.changePassword',
      { currentPassword: person.password, password: 'brand-new-pass', confirmPassword: 'brand-new-pass' },
      { cookie, origin },
    );
    expect(changed.status).toBe(200);
    expectSessionCookieFlags(sessionSetCookie(changed.setCookies), true);
    const fresh = sessionCookieFrom(changed.setCookies)!;

    // The sliding renewal re-sends the cookie: with the same flags.
    t.clock.advance(20 * DAY);
    const renewed = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: fresh });
    expect(renewed.data).not.toBeNull();
    expectSessionCookieFlags(sessionSetCookie(renewed.setCookies), true);

    const out = await callProcedure(t, 'mutation', 'auth.signOut', undefined, { cookie: fresh, origin });
    const cleared = sessionSetCookie(out.setCookies);
    expectSessionCookieFlags(cleared, true);
    expect(cleared).toMatch(/^jalsa_session=;.*Max-Age=0/i);
  });

  it('the renewal from a ticket download carries the same flags', async () => {
    const person = await signedInUser(t);
    const { bookingId } = await createBookingOn(t, { userId: person.userId });
    t.clock.advance(20 * DAY);
    const res = await t.request(`/api/tickets/${bookingId}.ics`, { headers: { cookie: person.cookie } });
    expect(res.status).toBe(200);
    expectSessionCookieFlags(sessionSetCookie(res.headers.getSetCookie()), true);
  });
});

describe('session tokens', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('the stored session id (the token’s hash) does not work as a cookie, nor does a made-up token', async () => {
    const person = await signUpVia(t);
    const token = person.cookie.split('=')[1]!;
    for (const value of [sessionIdOf(token), 'a'.repeat(32), `${token}x`, token.toUpperCase(), '']) {
      const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: `jalsa_session=${value}` });
      expect(me.status).toBe(200);
      expect(me.data, value).toBeNull();
    }
    expect(
      (await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie })).data,
    ).not.toBeNull();
  });

  it('a signed-out cookie opens nothing anywhere, plain routes included', async () => {
    const person = await signUpVia(t);
    const { bookingId } = await createBookingOn(t, { userId: person.account.id });
    expect(
      (await t.request(`/api/tickets/${bookingId}.pdf`, { headers: { cookie: person.cookie } })).status,
    ).toBe(200);
    await callProcedure(t, 'mutation', 'auth.signOut', undefined, { cookie: person.cookie });
    expect(
      (await t.request(`/api/tickets/${bookingId}.pdf`, { headers: { cookie: person.cookie } })).status,
    ).toBe(404);
    const byId = await callProcedure(t, 'query', 'bookings.byId', { bookingId }, { cookie: person.cookie });
    expect(byId.status).toBe(404);
  });
});

/**
 * Every row of every table, to prove a refused request changed nothing at all: SQLite's tables from
 * sqlite_master, PostgreSQL's from its catalogue (the app's schema; drizzle's migration journal lives
 * apart). PostgreSQL keeps no row order without ORDER BY (an update moves a row), so each table's rows
 * are compared as a sorted list: any added, removed or changed row still shows.
 */
async function snapshot(t: TestApp): Promise<Record<string, unknown[]>> {
  const listTables = isPostgres(t.deps.db)
    ? sql`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`
    : sql`select name from sqlite_master where type = 'table' order by name`;
  return runStatements(t.deps.db, function* (db) {
    const tables = yield* sqlRows<{ name: string }>(db, listTables);
    // A snapshot that found no tables would prove nothing.
    if (!tables.some(({ name }) => name === 'users')) throw new Error('snapshot: no users table found');
    const out: Record<string, unknown[]> = {};
    for (const { name } of tables) {
      const rows = yield* sqlRows<Record<string, unknown>>(db, sql`select * from ${sql.identifier(name)}`);
      out[name] = rows.map((r) => JSON.stringify(r)).sort();
    }
    return out;
  });
}

const mutations = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>,
)
  .filter(([, p]) => p._def.type === 'mutation')
  .map(([name]) => name);

/** A valid input per mutation, so a refusal can only come from the Origin check. */
async function validInputs(t: TestApp, password: string): Promise<Record<string, unknown>> {
  const ev = await createTicketedEventOn(t.deps.db);
  const versioned = { eventId: ev.eventId, version: 1 };
  return {
    'auth.signUp': {
      name: 'Evil Twin',
      email: 'evil-twin@example.com',
      password: 'secret-pass',
      confirmPassword: 'secret-pass',
      acceptTerms: true,
    },
    'auth.signIn': { email: 'victim@example.com', password },
    'auth.signOut': undefined,
    'auth.updateProfile': {
      name: 'Hacked Name',
      phone: '',
      gender: '',
      country: '',
      state: '',
      about: 'pwned',
    },
    'auth.changePassword': {
      currentPassword: password,
      password: 'attacker-pass',
      confirmPassword: 'attacker-pass',
    },
    'auth.requestPasswordReset': { email: 'victim@example.com' },
    'auth.resetPassword': {
      token: 'x'.repeat(40),
      password: 'attacker-pass',
      confirmPassword: 'attacker-pass',
    },
    'auth.verifyEmail': { token: 'x'.repeat(40) },
    'auth.resendVerification': undefined,
    'contact.send': {
      firstName: 'Evil',
      lastName: 'Site',
      email: 'evil@example.com',
      mobile: '9876543210',
      message: 'spam',
    },
    'payments.start': {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 10 }],
      ticketDetails: { name: 'Evil', email: 'evil@example.com', phone: '9876543210', state: 'Goa' },
    },
    'payments.confirm': { orderId: 'order_x', paymentId: 'pay_x', signature: 'f'.repeat(64) },
    'payments.release': { holdId: 'hold', reason: 'cancelled' },
    'bookings.cancel': { bookingId: 'bk_x' },
    'bookings.cancelSomeTickets': {
      bookingId: 'bk_x',
      tickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 1 }],
    },
    'transfers.start': { bookingId: 'bk_x', name: 'Evil', email: 'evil@example.com', mobile: '' },
    'transfers.cancel': { bookingId: 'bk_x' },
    'transfers.accept': { token: 'x'.repeat(40) },
    'waitlist.join': {
      ticketTypeId: ev.ticketTypeIds[0]!,
      quantity: 1,
      details: { name: 'Evil', email: 'evil@example.com', phone: '9876543210', state: 'Goa' },
    },
    'waitlist.leave': { entryId: 'wl_x' },
    'waitlist.payOffer': { entryId: 'wl_x' },
    'waitingRoom.join': { eventId: ev.eventId },
    'gate.scan': {
      eventId: ev.eventId,
      slotId: ev.slotId,
      gate: 'North gate',
      deviceId: 'd1',
      scanId: 'scan-evil-0001',
      token: 'x.y',
      persons: 1,
    },
    'gate.upload': {
      eventId: ev.eventId,
      slotId: ev.slotId,
      gate: 'North gate',
      deviceId: 'd1',
      scans: [
        {
          scanId: 'scan-evil-0002',
          token: 'x.y',
          decision: 'admit',
          persons: 1,
          scannedAt: '2026-12-05T13:30:00.000Z',
        },
      ],
    },
    'gate.undo': {
      eventId: ev.eventId,
      slotId: ev.slotId,
      gate: 'North gate',
      deviceId: 'd1',
      undoId: 'undo-evil-0001',
      scanId: 'scan-evil-0001',
      reason: 'Evil',
    },
    'organiserRequests.submit': {
      organisationName: 'Evil Events',
      contactPhone: '9876543210',
      city: 'Mumbai',
      whatTheyRun: 'Spam',
      gstin: '',
    },
    'console.invite': { eventId: ev.eventId, email: 'evil@example.com', role: 'co_organiser' },
    'console.removeMember': { eventId: ev.eventId, memberUserId: 'someone' },
    'console.cancelInvitation': { eventId: ev.eventId, invitationId: 'inv' },
    'console.acceptInvitation': { token: 'x'.repeat(40) },
    'admin.approveRequest': { requestId: 'req' },
    'admin.declineRequest': { requestId: 'req' },
    'admin.setOrganiser': { email: 'evil@example.com', role: 'organiser' },
    'admin.unpublishEvent': { eventId: 'evt', version: 1 },
    'admin.releaseEvent': { eventId: 'evt' },
    'admin.setConvenienceFeeCap': { percent: 1 },
    'admin.retryEInvoice': { invoiceId: 'inv_x' },
    'organiser.createEvent': EVIL_DETAILS,
    'organiser.updateDetails': { ...versioned, ...EVIL_DETAILS },
    'organiser.addDate': { ...versioned, day: '2026-12-24' },
    'organiser.removeDate': { ...versioned, dateId: ev.dateId },
    'organiser.addSlot': { ...versioned, dateId: ev.dateId, startTime: '10:00', endTime: '11:00' },
    'organiser.removeSlot': { ...versioned, slotId: ev.slotId },
    'organiser.addTicketType': { ...versioned, slotId: ev.slotId, ticket: EVIL_TICKET },
    'organiser.updateTicketType': { ...versioned, ticketTypeId: ev.ticketTypeIds[0], ticket: EVIL_TICKET },
    'organiser.removeTicketType': { ...versioned, ticketTypeId: ev.ticketTypeIds[0] },
    'organiser.updateWaitingRoom': {
      eventId: ev.eventId,
      enabled: true,
      opensAt: '2030-01-01T00:00:00.000Z',
      admitPerMinute: 10_000,
    },
    'organiser.copyTicketTypesToAllSlots': { ...versioned, fromSlotId: ev.slotId },
    'organiser.publish': versioned,
    'organiser.unpublish': versioned,
    'organiser.updateSlotTime': { ...versioned, slotId: ev.slotId, startTime: '10:00', endTime: '11:00' },
    'organiser.cancelSlot': { ...versioned, slotId: ev.slotId },
    'organiser.cancelEvent': versioned,
    'eventBookings.cancel': { eventId: ev.eventId, bookingId: 'JB23456789AB' },
    'eventBookings.resendTicket': { eventId: ev.eventId, bookingId: 'JB23456789AB' },
    'eventBookings.refundPart': {
      eventId: ev.eventId,
      bookingId: 'JB23456789AB',
      amountPaise: 100,
      reason: 'Evil',
    },
    'invoices.saveProfile': {
      legalName: 'Evil Events LLP',
      address: 'Somewhere',
      state: 'Maharashtra',
      gstin: '27AAPFU0939F1ZV',
    },
    'invoices.setEventTaxRate': { eventId: ev.eventId, taxRate: 5 },
    'invoices.addBuyerGstin': {
      bookingId: 'bk_x',
      buyerGstin: '27AAPFU0939F1ZV',
      buyerLegalName: 'Evil Pvt Ltd',
      buyerAddress: '4 MG Road, Pune 411001',
    },
    'invoices.setEInvoicing': { applies: true, aatoTenCroreOrMore: true },
    'invoices.retryEInvoice': { invoiceId: 'inv_x' },
    'console.createDiscountCode': { eventId: ev.eventId, code: EVIL_DISCOUNT },
    'console.updateDiscountCode': { eventId: ev.eventId, discountCodeId: 'dc_x', code: EVIL_DISCOUNT },
    'console.setDiscountCodeActive': { eventId: ev.eventId, discountCodeId: 'dc_x', isActive: false },
    'console.createQuota': { eventId: ev.eventId, quota: evilQuota(ev) },
    'console.updateQuota': { eventId: ev.eventId, quotaId: 'qt_x', quota: evilQuota(ev) },
    'console.removeQuota': { eventId: ev.eventId, quotaId: 'qt_x' },
    'console.createQuestion': {
      eventId: ev.eventId,
      ticketTypeId: ev.ticketTypeIds[0],
      question: EVIL_QUESTION,
    },
    'console.updateQuestion': { eventId: ev.eventId, questionId: 'q_x', question: EVIL_QUESTION },
    'console.removeQuestion': { eventId: ev.eventId, questionId: 'q_x' },
    'console.setAttendeeNames': { eventId: ev.eventId, ticketTypeId: ev.ticketTypeIds[0], mode: 'required' },
    'questions.correctAttendeeName': {
      bookingId: 'bk_x',
      ticketTypeId: ev.ticketTypeIds[0],
      position: 1,
      name: 'Evil',
    },
    'boxOffice.issueComp': { ...EVIL_BOX_OFFICE_SALE(ev), reason: 'Free for the attacker' },
    'boxOffice.recordDoorSale': { ...EVIL_BOX_OFFICE_SALE(ev), method: 'cash' },
    'console.createAddOn': { eventId: ev.eventId, addOn: EVIL_ADD_ON },
    'console.updateAddOn': { eventId: ev.eventId, addOnId: 'ao_x', addOn: EVIL_ADD_ON },
    'gate.markAddOnGiven': {
      eventId: ev.eventId,
      bookingId: 'JB23456789AB',
      lineId: 'JB23456789AB-a1',
      gate: 'North gate',
    },
  };
}

/** An add-on (ADR 0041) as the console's form sends it. */
const EVIL_ADD_ON = {
  name: 'Evil T-shirt',
  pricePaise: 1,
  taxRatePercent: 5,
  hsnSac: '6109',
  maxPerOrder: 1,
  variants: [{ name: 'M', stock: 1 }],
};

/** A shared capacity (issue 40) as the console's form sends it. */
const evilQuota = (ev: { slotId: string; ticketTypeIds: string[] }) => ({
  name: 'Evil hall',
  capacity: 1,
  slotIds: [ev.slotId],
  ticketTypeIds: ev.ticketTypeIds,
});

/** A ticket type's question (issue 40) as the console's form sends it. */
const EVIL_QUESTION = { label: 'Evil?', kind: 'text', options: [], required: true, scope: 'booking' };

/** A box-office sale (issue 40) of one ticket of the event, as the Box office page's forms send it. */
const EVIL_BOX_OFFICE_SALE = (ev: { eventId: string; slotId: string; ticketTypeIds: string[] }) => ({
  eventId: ev.eventId,
  slotId: ev.slotId,
  lines: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 1 }],
  name: 'Evil Guest',
  email: 'evil@example.com',
  phone: '9876543210',
});

/** A discount code's fields (issue 40) as the console's form sends them. */
const EVIL_DISCOUNT = {
  code: 'EVIL100',
  kind: 'percent',
  percentOff: 100,
  amountOffPaise: null,
  ticketTypeIds: null,
  validFrom: null,
  validUntil: null,
  maxUses: null,
  maxUsesPerBuyer: null,
};

const EVIL_DETAILS = {
  name: 'Evil Night',
  category: 'concerts',
  city: 'Mumbai',
  eventLocationText: '',
  googleMapsEmbedLink: '',
  description: '',
  ageRestrictions: null,
  language: '',
  termsAndConditions: [],
  artists: [],
  platformFeeRate: null,
};
const EVIL_TICKET = {
  name: 'Evil',
  priceRupees: 1,
  totalTickets: 1,
  maxPerOrder: 1,
  personAllowedPerTicket: 1,
  description: '',
  benefits: [],
  isRefundable: false,
  onSale: true,
  saleOpensAt: null,
  saleClosesAt: null,
};

describe('cross-origin state changes (CSRF)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it.each(['https://evil.example', 'null', 'http://localhost:8080', 'http://localhost.evil.example'])(
    'every mutation posted with Origin %s gets 403 and changes nothing',
    async (origin) => {
      const victim = await signUpVia(t, { email: 'victim@example.com' });
      const inputs = await validInputs(t, victim.password);
      expect(mutations.length).toBeGreaterThan(10);
      const before = await snapshot(t);
      for (const name of mutations) {
        expect(name in inputs, `a valid input for ${name}`).toBe(true);
        const res = await callProcedure(t, 'mutation', name, inputs[name], { cookie: victim.cookie, origin });
        expect(res.status, `${name} from ${origin}`).toBe(403);
        expect(res.body).toEqual({ error: { message: 'Cross-origin request refused' } });
        expect(res.setCookies, name).toEqual([]);
      }
      expect(await snapshot(t)).toEqual(before);
      // The victim is still signed in with the same profile.
      const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: victim.cookie });
      expect(me.data).toMatchObject({ email: 'victim@example.com', name: 'Asha Verma' });
    },
  );

  it('the same requests from the app’s own origin go through (the check is not refusing everything)', async () => {
    const victim = await signUpVia(t);
    const res = await callProcedure(
      t,
      'mutation',
      'auth.updateProfile',
      { name: 'Asha V', phone: '', gender: '', country: '', state: '', about: '' },
      { cookie: victim.cookie, origin: 'http://localhost' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('plain POST routes refuse another origin too, and change nothing', async () => {
    const buyer = await signedInUser(t);
    const ev = await createTicketedEventOn(t.deps.db);
    const session = await proceed(t, buyer.cookie, ev, 1);
    const before = await snapshot(t);
    for (const path of [
      '/api/create-order',
      `/api/simulator/orders/${session.orderId}/pay`,
      `/api/simulator/orders/${session.orderId}/fail`,
      '/api/webhooks/razorpay',
    ]) {
      const res = await t.request(path, {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json', cookie: buyer.cookie },
        body: JSON.stringify({ amount: 100_000, currency: 'INR' }),
      });
      expect(res.status, path).toBe(403);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('a mutation cannot be triggered with GET (a link or an <img> on another site)', async () => {
    const victim = await signUpVia(t);
    const before = await snapshot(t);
    for (const name of ['auth.signOut', 'auth.resendVerification', 'auth.updateProfile']) {
      const res = await t.request(`/trpc/${name}?input=${encodeURIComponent('{}')}`, {
        headers: { cookie: victim.cookie },
      });
      expect(res.status, name).toBe(405);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('no CORS: another site’s script cannot read answers (no Access-Control-Allow-* headers)', async () => {
    const victim = await signUpVia(t);
    const res = await t.request('/trpc/auth.me', {
      headers: { origin: 'https://evil.example', cookie: victim.cookie },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await t.request('/trpc/auth.updateProfile', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
