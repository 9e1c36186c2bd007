import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, count, eq, gt, sum } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { PLATFORM_ISSUER } from '../../src-server/db/schema/invoices.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { appRouter } from '../../src-server/trpc/root.ts';
import { createBookingOn } from '../helpers/bookings.ts';
import { CALLERS, type Caller, type ConsoleWorld } from '../helpers/console-world.ts';
import {
  account,
  buy,
  consoleWorld,
  consoleWorldInOneWrite,
  invitation,
  invitedThroughOwner,
  pendingRequest,
  signedInUser,
  teamMember,
} from '../helpers/engine-fixtures.ts';
import { makeImage, uploadImage } from '../helpers/images.ts';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

// Run on both engines (vitest.config.ts ON_BOTH_ENGINES): the tables are the engine's own.
const {
  addOns,
  addOnVariants,
  bookingAddOns,
  bookings,
  boxOfficeSales,
  eventDates,
  events,
  slots,
  ticketTypes,
  discountCodes,
  eInvoiceRegistrations,
  gateScans,
  invoices,
  organiserProfiles,
  outbox,
  platformSettings,
  waitingRooms,
  refundParts,
  attendeeNameSettings,
  ticketQuestions,
  quotas,
  quotaTicketTypes,
  accountRoles,
  eventTeamMembers,
  organiserRequests,
  teamInvitations,
} = tablesFor(testEngine());

/**
 * Issue 14's access matrix: every organiser and admin procedure × {signed out, buyer, organiser of
 * another event, gate staff, box office (issue 40), co-organiser, owner, admin}. For each, the expected status per caller;
 * a refused call must change nothing, and a not-found refusal must be the very answer an id that does
 * not exist gets, so an event id reveals nothing about another organiser's event.
 */

type Awaitable<T> = T | Promise<T>;

type Expected = Record<Caller, 200 | 401 | 403 | 404 | 409>;

/** The console world, plus a booking of its event for the booking procedures. */
type World = ConsoleWorld & { bookingId?: string };

interface Case {
  kind: 'query' | 'mutation';
  expected: Expected;
  /** The input for one call; called afresh before each caller (removals need a member each time). */
  input: (w: World, t: TestApp) => Awaitable<Record<string, unknown> | undefined>;
  /** The same input naming an event (or thing) that does not exist, for the 404 comparison. */
  unknown?: (w: World, t: TestApp) => Awaitable<Record<string, unknown>>;
  /** What a refused call must leave unchanged. */
  state?: (t: TestApp) => Promise<unknown>;
  /**
   * For a setting of the whole installation rather than of the case's world: saves it before the call
   * and answers what puts it back, so the cases after this one find it as a database of their own would.
   */
  keepInstallation?: (t: TestApp) => Promise<() => Promise<void>>;
}

const VIEW: Expected = {
  'signed out': 401,
  buyer: 404,
  'organiser of another event': 404,
  'gate staff': 200,
  'box office': 200,
  'co-organiser': 200,
  owner: 200,
  admin: 200,
};
/** The gate's work (checkIn): every role on the event but the box office. */
const CHECK_IN: Expected = { ...VIEW, 'box office': 403 };
/** The box office (issue 40): comps, door sales, the look-up; every role on the event but gate staff. */
const BOX_OFFICE: Expected = { ...VIEW, 'gate staff': 403 };
const VIEW_TEAM: Expected = { ...VIEW, 'gate staff': 403, 'box office': 403 };
/** Invite and remove: co-organisers do everything but delete the event. */
const MANAGE_TEAM: Expected = VIEW_TEAM;
/** Cancelling the whole event (≈ deleting it): the owner and admins. */
const CANCEL_EVENT: Expected = { ...VIEW_TEAM, 'co-organiser': 403 };
/** The event editor: the owner, co-organisers and admins. */
const EDIT: Expected = { ...VIEW, 'gate staff': 403, 'box office': 403 };
/** Starting an event: organisers and admins, whatever events they have. */
const ORGANISERS: Expected = {
  'signed out': 401,
  buyer: 403,
  'organiser of another event': 200,
  'gate staff': 403,
  'box office': 403,
  'co-organiser': 403,
  owner: 200,
  admin: 200,
};
const ADMIN_ONLY: Expected = {
  'signed out': 401,
  buyer: 403,
  'organiser of another event': 403,
  'gate staff': 403,
  'box office': 403,
  'co-organiser': 403,
  owner: 403,
  admin: 200,
};

const tableCount = async (
  t: TestApp,
  table:
    | typeof eventTeamMembers
    | typeof teamInvitations
    | typeof outbox
    | typeof gateScans
    | typeof boxOfficeSales,
) => (await t.deps.db.select({ n: count() }).from(table))[0]!.n;

const NO_EVENT = 'evt-doesnotexist';
const countRows = async (
  t: TestApp,
  table: typeof events | typeof eventDates | typeof slots | typeof ticketTypes,
) => (await t.deps.db.select({ n: count() }).from(table))[0]!.n;

/** A date, a slot on it and (unless `bare`) a ticket type in it, nothing sold: things that may be removed. */
async function addRemovable(t: TestApp, w: ConsoleWorld, bare = false) {
  const suffix = Math.random().toString(36).slice(2, 8);
  const dateId = `date-${suffix}`;
  const slotId = `slot-${suffix}`;
  const ticketTypeId = `tt-${suffix}`;
  await t.deps.db
    .insert(eventDates)
    .values({ id: dateId, eventId: w.event.eventId, dateOfEvent: '2026-12-19T18:30:00.000Z' });
  await t.deps.db.insert(slots).values({
    id: slotId,
    eventDateId: dateId,
    startTime: '2026-12-20T13:30:00.000Z',
    endTime: '2026-12-20T15:30:00.000Z',
  });
  if (!bare) {
    await t.deps.db.insert(ticketTypes).values({
      id: ticketTypeId,
      slotId,
      name: 'Spare',
      pricePaise: 10_000,
      totalTickets: 5,
      availableTickets: 5,
    });
  }
  return { dateId, slotId, ticketTypeId };
}

const gateWhere = (w: ConsoleWorld) => ({
  eventId: w.event.eventId,
  slotId: w.event.slotId,
  gate: 'North gate',
  deviceId: 'device-1',
});
/** A 4-person booking on the world's event and slot, and its QR token. */
async function gateToken(t: TestApp, w: ConsoleWorld): Promise<string> {
  const buyer = await signedInUser(t);
  const { bookingId } = await createBookingOn(t, {
    userId: buyer.userId,
    eventId: w.event.eventId,
    slotId: w.event.slotId,
  });
  return signTicketToken(t.deps.appSecret, bookingId);
}
/** An admission in the scan log (through the service, as a gate would make it), to be undone. */
async function gateAdmission(t: TestApp, w: ConsoleWorld): Promise<string> {
  const token = await gateToken(t, w);
  const bookingId = token.slice(0, token.lastIndexOf('.'));
  const scanId = randomUUID();
  await t.deps.db.update(bookings).set({ numberOfUserCheckedIn: 2 }).where(eq(bookings.id, bookingId));
  await t.deps.db.insert(gateScans).values({
    scanId,
    eventId: w.event.eventId,
    slotId: w.event.slotId,
    bookingId,
    kind: 'admit',
    persons: 2,
    gate: 'North gate',
    deviceId: 'device-1',
    scannedAt: t.clock.now().toISOString(),
    receivedAt: t.clock.now().toISOString(),
  });
  return scanId;
}
const admittedCount = async (t: TestApp) =>
  (await t.deps.db.select({ n: sum(bookings.numberOfUserCheckedIn) }).from(bookings))[0]?.n ?? null;

const DETAILS = {
  name: 'Renamed Night',
  category: 'concerts',
  city: 'Mumbai',
  eventLocationText: 'NSCI Dome',
  googleMapsEmbedLink: '',
  description: 'Music.',
  ageRestrictions: null,
  language: 'Hindi',
  termsAndConditions: [],
  artists: [],
  platformFeeRate: null,
};
const TICKET = {
  name: 'Silver',
  priceRupees: 499.5,
  totalTickets: 40,
  maxPerOrder: 6,
  personAllowedPerTicket: 1,
  description: '',
  benefits: [],
  isRefundable: false,
  onSale: true,
  saleOpensAt: null,
  saleClosesAt: null,
};
const setStatus = async (t: TestApp, w: ConsoleWorld, status: 'draft' | 'published') =>
  await t.deps.db.update(events).set({ status }).where(eq(events.id, w.event.eventId));

type Fields = (w: World, t: TestApp) => Awaitable<Record<string, unknown>>;

/**
 * A procedure on the world's event: `fields` (the rest of the input) are sent once with the event's id
 * and, for the 404 comparison, once with an id that does not exist.
 */
function onEvent(
  kind: Case['kind'],
  expected: Expected,
  fields: Fields = () => ({}),
  state?: Case['state'],
): Case {
  return {
    kind,
    expected,
    input: async (w, t) => ({ ...(await fields(w, t)), eventId: w.event.eventId }),
    unknown: async (w, t) => ({ ...(await fields(w, t)), eventId: NO_EVENT }),
    ...(state ? { state } : {}),
  };
}
const eventQuery = (expected: Expected, fields?: Fields) => onEvent('query', expected, fields);
const eventMutation = (expected: Expected, fields: Fields, state: NonNullable<Case['state']>) =>
  onEvent('mutation', expected, fields, state);

const eventStatuses = async (t: TestApp) => await t.deps.db.select({ status: events.status }).from(events);
const gateState = async (t: TestApp) => [await tableCount(t, gateScans), await admittedCount(t)];
const pendingRequests = async (t: TestApp) =>
  (
    await t.deps.db
      .select({ n: count() })
      .from(organiserRequests)
      .where(eq(organiserRequests.status, 'pending'))
  )[0]!.n;

const EDITOR_CASES: Record<string, Case> = {
  'organiser.createEvent': {
    kind: 'mutation',
    expected: ORGANISERS,
    input: () => DETAILS,
    state: async (t) => countRows(t, events),
  },
  'organiser.editableEvent': eventQuery(EDIT),
  'organiser.preview': eventQuery(VIEW),
  'organiser.waitingRoom': eventQuery(EDIT),
  'organiser.updateWaitingRoom': eventMutation(
    EDIT,
    async (_w, t) => ({
      enabled: true,
      opensAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
      admitPerMinute: 500,
    }),
    async (t) => await t.deps.db.select().from(waitingRooms),
  ),
  'organiser.updateDetails': eventMutation(
    EDIT,
    () => ({ version: 1, ...DETAILS }),
    async (t) => await t.deps.db.select({ name: events.name, version: events.version }).from(events),
  ),
  'organiser.addDate': eventMutation(
    EDIT,
    () => ({ version: 1, day: '2026-12-10' }),
    async (t) => countRows(t, eventDates),
  ),
  'organiser.removeDate': {
    kind: 'mutation',
    expected: EDIT,
    input: async (w, t) => ({
      eventId: w.event.eventId,
      version: 1,
      dateId: (await addRemovable(t, w)).dateId,
    }),
    unknown: () => ({ eventId: NO_EVENT, version: 1, dateId: 'date-none' }),
    state: async (t) => countRows(t, eventDates),
  },
  'organiser.addSlot': eventMutation(
    EDIT,
    (w) => ({ version: 1, dateId: w.event.dateId, startTime: '10:00', endTime: '12:00' }),
    async (t) => countRows(t, slots),
  ),
  'organiser.removeSlot': {
    kind: 'mutation',
    expected: EDIT,
    input: async (w, t) => ({
      eventId: w.event.eventId,
      version: 1,
      slotId: (await addRemovable(t, w)).slotId,
    }),
    unknown: () => ({ eventId: NO_EVENT, version: 1, slotId: 'slot-none' }),
    state: async (t) => countRows(t, slots),
  },
  'organiser.addTicketType': eventMutation(
    EDIT,
    (w) => ({ version: 1, slotId: w.event.slotId, ticket: TICKET }),
    async (t) => countRows(t, ticketTypes),
  ),
  'organiser.updateTicketType': eventMutation(
    EDIT,
    (w) => ({ version: 1, ticketTypeId: w.event.ticketTypeIds[0], ticket: TICKET }),
    async (t) => await t.deps.db.select().from(ticketTypes),
  ),
  'organiser.removeTicketType': {
    kind: 'mutation',
    expected: EDIT,
    input: async (w, t) => ({
      eventId: w.event.eventId,
      version: 1,
      ticketTypeId: (await addRemovable(t, w)).ticketTypeId,
    }),
    unknown: () => ({ eventId: NO_EVENT, version: 1, ticketTypeId: 'tt-none' }),
    state: async (t) => countRows(t, ticketTypes),
  },
  'organiser.copyTicketTypesToAllSlots': {
    kind: 'mutation',
    expected: EDIT,
    input: async (w, t) => {
      await addRemovable(t, w, true);
      return { eventId: w.event.eventId, version: 1, fromSlotId: w.event.slotId };
    },
    unknown: (w) => ({ eventId: NO_EVENT, version: 1, fromSlotId: w.event.slotId }),
    state: async (t) => countRows(t, ticketTypes),
  },
  'organiser.publish': {
    kind: 'mutation',
    expected: EDIT,
    input: async (w, t) => {
      await setStatus(t, w, 'draft');
      return { eventId: w.event.eventId, version: 1 };
    },
    unknown: () => ({ eventId: NO_EVENT, version: 1 }),
    state: eventStatuses,
  },
  'organiser.unpublish': eventMutation(EDIT, () => ({ version: 1 }), eventStatuses),
  'organiser.updateSlotTime': eventMutation(
    EDIT,
    (w) => ({ version: 1, slotId: w.event.slotId, startTime: '18:00', endTime: '22:00' }),
    async (t) => await t.deps.db.select({ start: slots.startTime }).from(slots),
  ),
  'organiser.cancellationPreview': eventQuery(EDIT, (w) => ({ slotId: w.event.slotId })),
  'organiser.cancelSlot': eventMutation(
    EDIT,
    (w) => ({ version: 1, slotId: w.event.slotId }),
    async (t) => await t.deps.db.select({ cancelledAt: slots.cancelledAt }).from(slots),
  ),
  'organiser.cancelEvent': eventMutation(CANCEL_EVENT, () => ({ version: 1 }), eventStatuses),
};

/** One booking's page and actions: the owner, co-organisers and admins (the buyer's details are on it). */
const theBooking: Fields = (w) => ({ bookingId: w.bookingId! });
const BOOKING_CASES: Record<string, Case> = {
  'eventBookings.booking': eventQuery(EDIT, theBooking),
  'eventBookings.cancel': eventMutation(
    EDIT,
    theBooking,
    async (t) => await t.deps.db.select({ status: bookings.status }).from(bookings),
  ),
  'eventBookings.resendTicket': eventMutation(EDIT, theBooking, async (t) => tableCount(t, outbox)),
  'eventBookings.refundPart': eventMutation(
    EDIT,
    (w) => ({ bookingId: w.bookingId!, amountPaise: 100, reason: 'Goodwill' }),
    async (t) => (await t.deps.db.select({ n: count() }).from(refundParts))[0]!.n,
  ),
  // The owner's own failed e-invoice: only its issuer may retry it; the admin's is another issuer's.
  'invoices.retryEInvoice': {
    kind: 'mutation',
    expected: { ...ORGANISERS, 'organiser of another event': 404, admin: 404 },
    input: async (w, t) => ({ invoiceId: await failedEInvoiceOf(w, t) }),
    unknown: () => ({ invoiceId: randomUUID() }),
    state: async (t) =>
      await t.deps.db
        .select({ attempts: eInvoiceRegistrations.attempts, next: eInvoiceRegistrations.nextAttemptAt })
        .from(eInvoiceRegistrations),
  },
  // The platform's own failed fee e-invoice: admins only (an organiser's is NOT_FOUND to admin.retryEInvoice).
  'admin.retryEInvoice': {
    kind: 'mutation',
    expected: ADMIN_ONLY,
    input: async (w, t) => ({ invoiceId: await failedEInvoiceOf(w, t, true) }),
    state: async (t) =>
      await t.deps.db
        .select({ attempts: eInvoiceRegistrations.attempts, next: eInvoiceRegistrations.nextAttemptAt })
        .from(eInvoiceRegistrations),
  },
};

/**
 * A B2B invoice of the owner's (for the matrix's booking) whose registration with the IRP gave up; or,
 * with `platform`, the platform's fee invoice of that booking.
 */
async function failedEInvoiceOf(w: World, t: TestApp, platform = false): Promise<string> {
  // Its own id each case: every case's world lives in the matrix's one database.
  const id = `inv_matrix_${randomUUID()}`;
  const issuer = platform ? PLATFORM_ISSUER : w.people.owner.userId;
  const at = t.clock.now().toISOString();
  await t.deps.db
    .insert(invoices)
    .values({
      id,
      bookingId: w.bookingId!,
      kind: platform ? 'platform_fee' : 'admission',
      documentType: 'tax_invoice',
      issuer,
      eventId: w.event.eventId,
      // The platform is one issuer across every world: a number of its own each time.
      number: platform ? `PLF/26-27/${id}` : 'INV/26-27/000001',
      financialYear: '26-27',
      issuedAt: at,
      supplierName: 'Tala Collective LLP',
      supplierAddress: '12 Hill Road, Mumbai 400050',
      supplierState: 'Maharashtra',
      supplierGstin: '27AAPFU0939F1ZV',
      buyerName: 'Asha Verma',
      buyerState: 'Karnataka',
      buyerGstin: '29AAGCB7383J1Z4',
      buyerLegalName: 'Kaveri Events Pvt Ltd',
      placeOfSupply: 'Maharashtra',
      taxInclusive: true,
      lines: [],
      taxableValuePaise: 0,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 0,
      notes: [],
    })
    .onConflictDoNothing();
  await t.deps.db
    .insert(eInvoiceRegistrations)
    .values({
      invoiceId: id,
      issuer,
      status: 'failed',
      attempts: 8,
      nextAttemptAt: null,
      lastError: 'IRP: 2265: state code mismatch',
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing();
  return id;
}

/**
 * Gives every organiser and admin of the world a registered profile with a PIN code in its address, so
 * the e-invoicing setting may apply.
 */
async function registeredProfiles(w: World, t: TestApp) {
  for (const who of [w.people.owner, w.people['organiser of another event'], w.people.admin]) {
    await t.deps.db
      .insert(organiserProfiles)
      .values({
        userId: who.userId,
        legalName: 'Tala Collective LLP',
        address: '12 Hill Road, Mumbai 400050',
        state: 'Maharashtra',
        gstin: '27AAPFU0939F1ZV',
        updatedAt: t.clock.now().toISOString(),
      })
      .onConflictDoNothing();
  }
}

/** Sales and attendees: buyers' details and money, for the owner, co-organisers and admins. */
const VIEW_SALES: Expected = { ...VIEW, 'gate staff': 403, 'box office': 403 };
/** The payout statement (issue 40): what the owner is owed, for the owner and admins. */
const VIEW_PAYOUTS: Expected = { ...VIEW_SALES, 'co-organiser': 403 };

/** A box-office sale of one ticket of the world's event (issue 40), without its kind's own fields. */
const boxOfficeSale = (w: World) => ({
  slotId: w.event.slotId,
  lines: [{ ticketTypeId: w.event.ticketTypeIds[0], quantity: 1 }],
  name: 'Asha Verma',
  email: 'asha.door@example.com',
  phone: '9876543210',
});
const boxOfficeState = async (t: TestApp) => [
  await tableCount(t, boxOfficeSales),
  (await t.deps.db.select({ n: sum(ticketTypes.availableTickets) }).from(ticketTypes))[0]!.n,
];

/** A scan a gate device took offline, for `gate.upload`. */
const offlineAdmission = async (w: World, t: TestApp) => ({
  scanId: randomUUID(),
  token: await gateToken(t, w),
  decision: 'admit',
  persons: 1,
  scannedAt: t.clock.now().toISOString(),
});

/** A discount code's terms as the console sends them (issue 40), with a fresh name each call. */
const discountFields = () => ({
  code: `C${Math.random().toString(36).slice(2, 10)}`,
  kind: 'percent',
  percentOff: 10,
  amountOffPaise: null,
  ticketTypeIds: null,
  validFrom: null,
  validUntil: null,
  maxUses: null,
  maxUsesPerBuyer: null,
});

/** A code of the event, for the update and deactivate cases. */
async function insertDiscountCode(t: TestApp, eventId: string): Promise<string> {
  const id = `dc-${randomUUID()}`;
  const fields = { ...discountFields(), code: `SEED${Math.random().toString(36).slice(2, 10)}` };
  await t.deps.db.insert(discountCodes).values({
    id,
    eventId,
    ...fields,
    kind: 'percent',
    codeKey: fields.code.toLowerCase(),
    createdAt: t.clock.now().toISOString(),
    updatedAt: t.clock.now().toISOString(),
  });
  return id;
}

/**
 * Every code a call could have made or changed: a refused call adds none, renames none, deactivates
 * none. The untouched codes `insertDiscountCode` adds for the next caller are left out.
 */
const discountState = async (t: TestApp) =>
  (
    await t.deps.db
      .select({ id: discountCodes.id, code: discountCodes.code, isActive: discountCodes.isActive })
      .from(discountCodes)
  ).filter((row) => !(row.code.startsWith('SEED') && row.isActive));

/** A ticket type's question as the console sends it (issue 40). */
const QUESTION = { label: 'Company?', kind: 'text', options: [], required: false, scope: 'booking' };

/** A question of the event's first ticket type, for the update and remove cases. */
async function insertQuestion(
  t: TestApp,
  event: { eventId: string; ticketTypeIds: string[] },
): Promise<string> {
  const id = `q-${randomUUID()}`;
  const now = t.clock.now().toISOString();
  await t.deps.db.insert(ticketQuestions).values({
    id,
    eventId: event.eventId,
    ticketTypeId: event.ticketTypeIds[0]!,
    label: 'Seeded?',
    kind: 'text',
    options: [],
    required: false,
    scope: 'booking',
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** Questions a call could have made, changed or removed; the untouched seeded ones are left out. */
const questionState = async (t: TestApp) =>
  (
    await t.deps.db
      .select({ id: ticketQuestions.id, label: ticketQuestions.label, removedAt: ticketQuestions.removedAt })
      .from(ticketQuestions)
  ).filter((row) => !(row.label === 'Seeded?' && row.removedAt === null));

/** A shared capacity over the world's event's ticket types, as the console sends it (issue 40). */
const quotaFields = (w: World) => ({
  quota: {
    name: `Hall ${Math.random().toString(36).slice(2, 8)}`,
    capacity: 1000,
    slotIds: [w.event.slotId],
    ticketTypeIds: w.event.ticketTypeIds,
  },
});

/** Every quota `insertQuota` made, so a removal shows even though the 404 comparison seeds another. */
const seededQuotas = new Set<string>();

/** A quota of the event, for the update and remove cases. */
async function insertQuota(t: TestApp, w: World): Promise<string> {
  const id = `qt-${randomUUID()}`;
  seededQuotas.add(id);
  const now = t.clock.now().toISOString();
  await t.deps.db.insert(quotas).values({
    id,
    eventId: w.event.eventId,
    name: 'Seed',
    capacity: 1000,
    available: 1000,
    createdAt: now,
    updatedAt: now,
  });
  await t.deps.db.insert(quotaTicketTypes).values({ quotaId: id, ticketTypeId: w.event.ticketTypeIds[0]! });
  return id;
}

/**
 * What a call could have done to quotas: the ones made or changed (untouched seeds left out, as
 * `insertQuota` adds one for the 404 comparison too) and the seeded ones removed.
 */
const quotaState = async (t: TestApp) => {
  const rows = await t.deps.db
    .select({ id: quotas.id, name: quotas.name, capacity: quotas.capacity })
    .from(quotas);
  const present = new Set(rows.map((row) => row.id));
  return {
    changed: rows.filter(
      (row) => !(seededQuotas.has(row.id) && row.name === 'Seed' && row.capacity === 1000),
    ),
    removed: [...seededQuotas].filter((id) => !present.has(id)),
  };
};

/** An add-on of the event with one size, for the update case and the gate's (ADR 0041). */
async function insertAddOn(t: TestApp, w: ConsoleWorld): Promise<{ addOnId: string; variantId: string }> {
  const addOnId = `ao-${randomUUID()}`;
  const variantId = `av-${randomUUID()}`;
  const now = t.clock.now().toISOString();
  await t.deps.db.insert(addOns).values({
    id: addOnId,
    eventId: w.event.eventId,
    name: 'Seed',
    pricePaise: 50_000,
    taxRatePercent: 5,
    hsnSac: '6109',
    maxPerOrder: 2,
    createdAt: now,
    updatedAt: now,
  });
  await t.deps.db
    .insert(addOnVariants)
    .values({ id: variantId, addOnId, name: 'M', stock: 10, available: 10, position: 0 });
  return { addOnId, variantId };
}

const addOnFields = () => ({
  addOn: {
    name: 'Parking',
    pricePaise: 20_000,
    taxRatePercent: 18,
    hsnSac: '996743',
    maxPerOrder: 1,
    variants: [{ name: '', stock: 50 }],
  },
});

/** What a call could have done to add-ons: every one not the untouched seed. */
const addOnState = async (t: TestApp) =>
  (
    await t.deps.db.select({ id: addOns.id, name: addOns.name, price: addOns.pricePaise }).from(addOns)
  ).filter((row) => row.name !== 'Seed');

/** A booking of the event with a T-shirt to hand over, for the gate's add-on procedures. */
async function bookingWithAddOn(t: TestApp, w: ConsoleWorld): Promise<{ bookingId: string; lineId: string }> {
  const token = await gateToken(t, w);
  const bookingId = token.slice(0, token.lastIndexOf('.'));
  const { addOnId, variantId } = await insertAddOn(t, w);
  const lineId = `${bookingId}-a1`;
  await t.deps.db.insert(bookingAddOns).values({
    id: lineId,
    bookingId,
    addOnId,
    variantId,
    name: 'Seed',
    variantName: 'M',
    hsnSac: '6109',
    quantity: 1,
    pricePaise: 50_000,
    taxRatePercent: 5,
    totalPaise: 50_000,
    position: 0,
  });
  return { bookingId, lineId };
}

/** Add-ons marked given (a refused call marks none; the cases' own seeds are not given). */
const givenState = async (t: TestApp) =>
  (
    await t.deps.db.select({ id: bookingAddOns.id, givenAt: bookingAddOns.givenAt }).from(bookingAddOns)
  ).filter((row) => row.givenAt !== null);

/** An admin deciding a pending organiser request. */
const decideRequest: Case = {
  kind: 'mutation',
  expected: ADMIN_ONLY,
  input: async (_w, t) => ({ requestId: await pendingRequest(t, (await account(t)).userId) }),
  state: pendingRequests,
};

const CASES: Record<string, Case> = {
  ...EDITOR_CASES,
  'console.salesDashboard': eventQuery(VIEW_SALES),
  'console.salesOverTime': eventQuery(VIEW_SALES, () => ({ bucket: 'hour' })),
  'console.orders': eventQuery(VIEW_SALES, (w) => ({ slotId: w.event.slotId, q: 'a', limit: 25 })),
  'console.discountCodes': eventQuery(VIEW_SALES),
  'console.createDiscountCode': eventMutation(EDIT, () => ({ code: discountFields() }), discountState),
  'console.updateDiscountCode': eventMutation(
    EDIT,
    async (w, t) => ({
      discountCodeId: await insertDiscountCode(t, w.event.eventId),
      code: discountFields(),
    }),
    discountState,
  ),
  'console.setDiscountCodeActive': eventMutation(
    EDIT,
    async (w, t) => ({ discountCodeId: await insertDiscountCode(t, w.event.eventId), isActive: false }),
    discountState,
  ),
  'console.payoutStatement': eventQuery(VIEW_PAYOUTS, () => ({ month: '2026-11' })),
  /** The organiser's month (issue 40): organisers and admins; whose events it lists is tried below. */
  'console.monthlyPayoutStatement': {
    kind: 'query',
    expected: ORGANISERS,
    input: () => ({ month: '2026-11' }),
  },
  'console.ticketQuestions': eventQuery(EDIT),
  'console.createQuestion': eventMutation(
    EDIT,
    (w) => ({ ticketTypeId: w.event.ticketTypeIds[0], question: QUESTION }),
    questionState,
  ),
  'console.updateQuestion': eventMutation(
    EDIT,
    async (w, t) => ({
      questionId: await insertQuestion(t, w.event),
      question: { ...QUESTION, label: 'Changed?' },
    }),
    questionState,
  ),
  'console.removeQuestion': eventMutation(
    EDIT,
    async (w, t) => ({ questionId: await insertQuestion(t, w.event) }),
    questionState,
  ),
  'console.setAttendeeNames': eventMutation(
    EDIT,
    (w) => ({ ticketTypeId: w.event.ticketTypeIds[0], mode: 'required' }),
    async (t) => await t.deps.db.select().from(attendeeNameSettings),
  ),
  'console.quotas': eventQuery(EDIT),
  'console.createQuota': eventMutation(EDIT, quotaFields, quotaState),
  'console.updateQuota': eventMutation(
    EDIT,
    async (w, t) => ({ quotaId: await insertQuota(t, w), ...quotaFields(w) }),
    quotaState,
  ),
  'console.removeQuota': eventMutation(
    EDIT,
    async (w, t) => ({ quotaId: await insertQuota(t, w) }),
    quotaState,
  ),
  'boxOffice.issueComp': eventMutation(
    BOX_OFFICE,
    (w) => ({ ...boxOfficeSale(w), reason: 'Press' }),
    boxOfficeState,
  ),
  'boxOffice.recordDoorSale': eventMutation(
    BOX_OFFICE,
    (w) => ({ ...boxOfficeSale(w), method: 'cash' }),
    boxOfficeState,
  ),
  'boxOffice.lookUpOrders': eventQuery(BOX_OFFICE, () => ({ query: 'asha' })),
  'console.addOns': eventQuery(EDIT),
  'console.createAddOn': eventMutation(EDIT, addOnFields, addOnState),
  'console.updateAddOn': eventMutation(
    EDIT,
    async (w, t) => ({ addOnId: (await insertAddOn(t, w)).addOnId, ...addOnFields() }),
    addOnState,
  ),
  ...BOOKING_CASES,
  'console.event': eventQuery(VIEW),
  'console.team': eventQuery(VIEW_TEAM),
  'console.invite': {
    kind: 'mutation',
    expected: MANAGE_TEAM,
    input: (w) => ({
      eventId: w.event.eventId,
      email: `new-${Math.random()}@example.com`,
      role: 'gate_staff',
    }),
    unknown: () => ({ eventId: 'evt-doesnotexist', email: 'someone@example.com', role: 'gate_staff' }),
    state: async (t) => [await tableCount(t, teamInvitations), await tableCount(t, outbox)],
  },
  'console.removeMember': {
    kind: 'mutation',
    expected: MANAGE_TEAM,
    input: async (w, t) => {
      const member = await account(t);
      await teamMember(t, w.event.eventId, member.userId, 'gate_staff');
      return { eventId: w.event.eventId, memberUserId: member.userId };
    },
    unknown: (w) => ({ eventId: 'evt-doesnotexist', memberUserId: w.people['gate staff'].userId }),
    state: async (t) => tableCount(t, eventTeamMembers),
  },
  'console.cancelInvitation': {
    kind: 'mutation',
    expected: MANAGE_TEAM,
    input: async (w, t) => {
      const { invitationId } = await invitation(t, {
        eventId: w.event.eventId,
        invitedBy: w.people.owner.userId,
      });
      return { eventId: w.event.eventId, invitationId };
    },
    unknown: () => ({ eventId: 'evt-doesnotexist', invitationId: 'inv-doesnotexist' }),
    state: async (t) =>
      (
        await t.deps.db
          .select({ n: count() })
          .from(teamInvitations)
          .where(gt(teamInvitations.expiresAt, t.clock.now().toISOString()))
      )[0]!.n,
  },
  'gate.sync': eventQuery(CHECK_IN, (w) => ({ slotId: w.event.slotId })),
  'gate.lookUp': eventQuery(CHECK_IN, (w) => ({ slotId: w.event.slotId, query: 'Test' })),
  'gate.dashboard': eventQuery(VIEW),
  'gate.addOns': eventQuery(CHECK_IN, async (w, t) => ({
    bookingId: (await bookingWithAddOn(t, w)).bookingId,
  })),
  'gate.markAddOnGiven': eventMutation(
    CHECK_IN,
    async (w, t) => ({ ...(await bookingWithAddOn(t, w)), gate: 'North gate' }),
    givenState,
  ),
  'gate.history': eventQuery(CHECK_IN, async (w, t) => {
    const token = await gateToken(t, w);
    return { bookingId: token.slice(0, token.lastIndexOf('.')) };
  }),
  'gate.scan': {
    kind: 'mutation',
    expected: CHECK_IN,
    input: async (w, t) => ({
      ...gateWhere(w),
      scanId: randomUUID(),
      token: await gateToken(t, w),
      persons: 1,
    }),
    unknown: async (w, t) => ({
      ...gateWhere(w),
      eventId: NO_EVENT,
      scanId: randomUUID(),
      token: await gateToken(t, w),
    }),
    state: gateState,
  },
  'gate.upload': eventMutation(
    CHECK_IN,
    async (w, t) => ({ ...gateWhere(w), scans: [await offlineAdmission(w, t)] }),
    gateState,
  ),
  'gate.undo': {
    kind: 'mutation',
    expected: CHECK_IN,
    input: async (w, t) => ({
      ...gateWhere(w),
      undoId: randomUUID(),
      scanId: await gateAdmission(t, w),
      reason: 'Wrong ticket',
    }),
    unknown: (w) => ({
      ...gateWhere(w),
      eventId: NO_EVENT,
      undoId: randomUUID(),
      scanId: randomUUID(),
      reason: 'Wrong ticket',
    }),
    state: gateState,
  },
  'invoices.profile': { kind: 'query', expected: ORGANISERS, input: () => undefined },
  'invoices.saveProfile': {
    kind: 'mutation',
    expected: ORGANISERS,
    input: () => ({
      legalName: 'Tala Collective LLP',
      address: '12 Hill Road, Mumbai',
      state: 'Maharashtra',
      gstin: '27AAPFU0939F1ZV',
    }),
    state: async (t) => (await t.deps.db.select({ n: count() }).from(organiserProfiles))[0]!.n,
  },
  'invoices.eInvoicing': { kind: 'query', expected: ORGANISERS, input: () => undefined },
  'invoices.setEInvoicing': {
    kind: 'mutation',
    expected: ORGANISERS,
    input: async (w, t) => {
      await registeredProfiles(w, t);
      return { applies: true, aatoTenCroreOrMore: true };
    },
    state: async (t) =>
      await t.deps.db.select({ since: organiserProfiles.eInvoicingSince }).from(organiserProfiles),
  },
  'invoices.setEventTaxRate': eventMutation(
    EDIT,
    () => ({ taxRate: 5 }),
    async (t) => await t.deps.db.select({ rate: events.taxRate }).from(events),
  ),
  'invoices.forEvent': eventQuery(VIEW_SALES, () => ({ bookings: ['bk_any'] })),
  'admin.organiserRequests': { kind: 'query', expected: ADMIN_ONLY, input: () => undefined },
  'admin.approveRequest': decideRequest,
  'admin.declineRequest': decideRequest,
  'admin.setOrganiser': {
    kind: 'mutation',
    expected: ADMIN_ONLY,
    input: async (_w, t) => ({ email: (await account(t)).email, role: 'organiser' }),
    state: async (t) =>
      (
        await t.deps.db.select({ n: count() }).from(accountRoles).where(eq(accountRoles.role, 'organiser'))
      )[0]!.n,
  },
  'admin.organisers': { kind: 'query', expected: ADMIN_ONLY, input: () => ({ page: 1 }) },
  'admin.events': { kind: 'query', expected: ADMIN_ONLY, input: () => ({ page: 1 }) },
  'admin.totals': { kind: 'query', expected: ADMIN_ONLY, input: () => undefined },
  'admin.eInvoicing': { kind: 'query', expected: ADMIN_ONLY, input: () => undefined },
  'admin.convenienceFeeCap': { kind: 'query', expected: ADMIN_ONLY, input: () => undefined },
  'admin.setConvenienceFeeCap': {
    kind: 'mutation',
    expected: ADMIN_ONLY,
    input: () => ({ percent: 1 }),
    state: async (t) => await t.deps.db.select({ rate: events.platformFeeRate }).from(events),
    keepInstallation: async (t) => {
      const saved = await t.deps.db.select().from(platformSettings);
      return async () => {
        await t.deps.db.delete(platformSettings);
        if (saved.length > 0) await t.deps.db.insert(platformSettings).values(saved);
      };
    },
  },
  'admin.unpublishEvent': {
    kind: 'mutation',
    expected: ADMIN_ONLY,
    input: (w) => ({ eventId: w.otherEvent.eventId, version: 1 }),
    state: async (t) =>
      await t.deps.db.select({ status: events.status, version: events.version }).from(events),
  },
  'admin.releaseEvent': {
    kind: 'mutation',
    expected: ADMIN_ONLY,
    input: async (w, t) => {
      await t.deps.db
        .update(events)
        .set({ status: 'draft', adminHoldAt: t.clock.now().toISOString() })
        .where(eq(events.id, w.otherEvent.eventId));
      return { eventId: w.otherEvent.eventId };
    },
    state: async (t) => await t.deps.db.select({ heldAt: events.adminHoldAt }).from(events),
  },
  'organiserRequests.submit': {
    kind: 'mutation',
    expected: {
      'signed out': 401,
      buyer: 200,
      'organiser of another event': 409,
      'gate staff': 200,
      'box office': 200,
      'co-organiser': 200,
      owner: 409,
      admin: 409,
    },
    input: () => ({
      organisationName: 'Tala Collective',
      contactPhone: '9876543210',
      city: 'Mumbai',
      whatTheyRun: 'Jazz nights',
      gstin: '',
    }),
  },
};

describe('the console access matrix covers every organiser and admin procedure', () => {
  it('has a row for each procedure of the console, editor, admin and organiser-request routers', () => {
    const names = Object.keys(appRouter._def.procedures).filter((n) =>
      /^(console|admin|organiserRequests|organiser|eventBookings|gate|invoices|boxOffice)\./.test(n),
    );
    const elsewhere = new Set([
      // Self-only (the caller's own data), tested in the flows and below.
      'console.access',
      'console.myEvents',
      'organiserRequests.mine',
      'gate.events',
      // Capabilities (a mailed token), tested below.
      'console.invitation',
      'console.acceptInvitation',
      // The caller's own booking's invoices: owner-only, in security-access-matrix.test.ts.
      'invoices.forBooking',
      'invoices.addBuyerGstin',
    ]);
    expect(
      names.filter((n) => !CASES[n] && !elsewhere.has(n)),
      'add these to CASES',
    ).toEqual([]);
  });
});

/**
 * A world of its own (people, events, team; a bought booking for the booking procedures) in the
 * matrix's one database: fresh ids, so nothing another case wrote is in it.
 */
async function newWorld(t: TestApp, name: string): Promise<World> {
  const w: World = await consoleWorldInOneWrite(t);
  // The booking procedures need a real booking (bought through the simulator) of the event.
  if (name in BOOKING_CASES) w.bookingId = (await buy(t, w.event, 1)).bookingId;
  return w;
}

/**
 * One database (and app) for the file rather than one per case: on PostgreSQL a database per case
 * (~650) took over five minutes. Each case still stands alone: it has a world of its own (fresh ids:
 * people, events, team), so no other case's writes are in what it calls or checks; the one setting
 * of the whole installation a case changes (the convenience-fee cap) is put back after it
 * (`keepInstallation`). Only gate.events' test, whose admin answer is every event of the installation,
 * has a database of its own.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestAppOn(testEngine());
});
afterAll(async () => {
  await t.close();
});

/**
 * A mutation's caller gets a world of its own (an allowed call by one caller, e.g. a version bump or
 * a cancelled booking, cannot decide the next caller's status); a query's callers share one world per
 * procedure, as a query writes nothing. The worlds of a procedure are built together before its cases
 * (on PostgreSQL their statements overlap on the pool); the state a case checks is read just before
 * and after its own call, which runs alone.
 */
describe('every procedure × every caller', () => {
  describe.each(Object.entries(CASES))('%s', (name, c) => {
    const worlds = new Map<Caller, World>();
    beforeAll(async () => {
      const shared = c.kind === 'query' ? newWorld(t, name) : undefined;
      const built = await Promise.all(CALLERS.map(() => shared ?? newWorld(t, name)));
      for (const [i, caller] of CALLERS.entries()) worlds.set(caller, built[i]!);
    });

    it.each(CALLERS)('as %s', async (caller) => {
      const w = worlds.get(caller)!;
      const restore = await c.keepInstallation?.(t);
      onTestFinished(async () => {
        await restore?.();
      });
      const expected = c.expected[caller];
      const input = await c.input(w, t);
      const before = await c.state?.(t);
      const res = await callProcedure(t, c.kind, name, input, { cookie: w.cookieOf(caller) });
      expect(res.status, JSON.stringify(res.body.error)).toBe(expected);
      if (expected === 401) expect(res.body.error?.message).toBe('User not authenticated');
      if (expected === 403) expect(res.body.error?.message).toBe('You are not allowed to do this.');
      if (expected === 404 && c.unknown) {
        const unknown = await callProcedure(t, c.kind, name, await c.unknown(w, t), {
          cookie: w.cookieOf(caller),
        });
        expect({ status: res.status, message: res.body.error?.message }).toEqual({
          status: unknown.status,
          message: unknown.body.error?.message,
        });
      }
      if (c.state && expected !== 200)
        expect(await c.state(t), 'a refused call changes nothing').toEqual(before);
      if (c.state && expected === 200)
        expect(await c.state(t), 'an allowed call has its effect').not.toEqual(before);
    });
  });
});

/** A key naming money the event took (not a ticket's public price, which the storefront shows anyone). */
const MONEY_KEY = /paise|gross|revenue|takings|amount|fees?$/i;
const PUBLIC_PRICE_KEY = /price/i;
function moneyKeys(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => moneyKeys(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(MONEY_KEY.test(k) && !PUBLIC_PRICE_KEY.test(k) && v !== null ? [`${at}.${k}`] : []),
    ...moneyKeys(v, `${at}.${k}`),
  ]);
}

describe.each(['gate staff', 'box office'] as const)('%s see no money (issues 35, 40)', (who) => {
  let w: World;
  beforeEach(async () => {
    w = await consoleWorld(t);
    // Takings to leak: a paid order on the event.
    w.bookingId = (await buy(t, w.event, 2)).bookingId;
  });

  it('no query they may call answers with the takings, and the money procedures refuse them', async () => {
    const queries = [
      ...(await Promise.all(
        Object.entries(CASES)
          .filter(([, c]) => c.kind === 'query')
          .map(async ([name, c]) => ({ name, input: await c.input(w, t) })),
      )),
      { name: 'console.myEvents', input: undefined },
      { name: 'console.access', input: undefined },
      { name: 'gate.events', input: undefined },
    ];
    const cookie = w.cookieOf(who);
    const leaks: Record<string, string[]> = {};
    const allowed: string[] = [];
    for (const q of queries) {
      const res = await callProcedure(t, 'query', q.name, q.input, { cookie });
      if (res.status !== 200) continue;
      allowed.push(q.name);
      const keys = moneyKeys(res.data);
      if (keys.length > 0) leaks[q.name] = keys;
    }
    // The same answers carry money for the owner, so the check above can see it.
    const owners = await callProcedure(t, 'query', 'console.myEvents', undefined, {
      cookie: w.cookieOf('owner'),
    });
    expect(moneyKeys(owners.data)).not.toEqual([]);
    expect(allowed).toContain('console.myEvents');
    expect(leaks).toEqual({});
    for (const name of [
      'console.salesDashboard',
      'console.salesOverTime',
      'console.orders',
      'console.payoutStatement',
      'console.monthlyPayoutStatement',
    ])
      expect(allowed, name).not.toContain(name);
  });
});

describe('gate.events, on a database of its own (an admin is answered every event of the installation)', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeAll(async () => {
    t = await createTestAppOn(testEngine());
    w = await consoleWorld(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('gate.events lists the events whose gate each caller may run (admins: all)', async () => {
    const seen: Record<string, string[]> = {};
    for (const caller of CALLERS) {
      const res = await callProcedure(t, 'query', 'gate.events', undefined, { cookie: w.cookieOf(caller) });
      seen[caller] =
        res.status === 200 ? (res.data as { id: string }[]).map((e) => e.id).sort() : [`${res.status}`];
    }
    expect(seen).toEqual({
      'signed out': ['401'],
      buyer: [],
      'organiser of another event': [w.otherEvent.eventId],
      'gate staff': [w.event.eventId],
      // The box office does not run the gate (issue 40).
      'box office': [],
      'co-organiser': [w.event.eventId],
      owner: [w.event.eventId],
      admin: [w.event.eventId, w.otherEvent.eventId].sort(),
    });
  });
});

describe('self-only and capability procedures', () => {
  let w: ConsoleWorld;
  beforeEach(async () => {
    w = await consoleWorld(t);
  });

  it('console.myEvents lists only the events each caller owns or is on the team of', async () => {
    const seen: Record<string, string[]> = {};
    for (const caller of CALLERS) {
      const res = await callProcedure(t, 'query', 'console.myEvents', undefined, {
        cookie: w.cookieOf(caller),
      });
      seen[caller] = res.status === 200 ? (res.data as { id: string }[]).map((e) => e.id) : [`${res.status}`];
    }
    expect(seen).toEqual({
      'signed out': ['401'],
      buyer: [],
      'organiser of another event': [w.otherEvent.eventId],
      'gate staff': [w.event.eventId],
      'box office': [w.event.eventId],
      'co-organiser': [w.event.eventId],
      owner: [w.event.eventId],
      admin: [],
    });
  });

  it('console.monthlyPayoutStatement and /api/organiser/payout.csv list only the caller’s own events', async () => {
    await buy(t, w.event, 1);
    await buy(t, w.otherEvent, 1);
    const seen: Record<string, unknown> = {};
    for (const caller of CALLERS) {
      const cookie = w.cookieOf(caller);
      const res = await callProcedure(
        t,
        'query',
        'console.monthlyPayoutStatement',
        { month: '2026-11' },
        { cookie },
      );
      const file = await t.request('/api/organiser/payout.csv?month=2026-11', {
        headers: cookie ? { cookie } : {},
      });
      const text = await file.text();
      const csvEvents = [w.event, w.otherEvent]
        .filter((e) => text.includes(e.eventName))
        .map((e) => e.eventId);
      seen[caller] =
        res.status === 200
          ? {
              rows: (res.data as { events: { eventId: string }[] }).events.map((e) => e.eventId),
              csv: csvEvents,
            }
          : { status: res.status, csv: file.status };
    }
    expect(seen).toEqual({
      'signed out': { status: 401, csv: 401 },
      buyer: { status: 403, csv: 403 },
      'organiser of another event': { rows: [w.otherEvent.eventId], csv: [w.otherEvent.eventId] },
      // Team roles have no viewPayouts: not even the co-organiser (the per-event statement's rule).
      'gate staff': { status: 403, csv: 403 },
      'box office': { status: 403, csv: 403 },
      'co-organiser': { status: 403, csv: 403 },
      owner: { rows: [w.event.eventId], csv: [w.event.eventId] },
      // An admin's own month: they own no event here.
      admin: { rows: [], csv: [] },
    });
  });

  it('console.access tells each caller their own role only', async () => {
    const seen: Record<string, unknown> = {};
    for (const caller of CALLERS) {
      seen[caller] = (
        await callProcedure(t, 'query', 'console.access', undefined, { cookie: w.cookieOf(caller) })
      ).data;
    }
    expect(seen).toEqual({
      'signed out': null,
      buyer: { role: 'none', teamEvents: 0 },
      'organiser of another event': { role: 'organiser', teamEvents: 0 },
      'gate staff': { role: 'none', teamEvents: 1 },
      'box office': { role: 'none', teamEvents: 1 },
      'co-organiser': { role: 'none', teamEvents: 1 },
      owner: { role: 'organiser', teamEvents: 0 },
      admin: { role: 'admin', teamEvents: 0 },
    });
  });

  it('organiserRequests.mine shows a caller only their own request', async () => {
    await pendingRequest(t, w.people.buyer.userId);
    for (const caller of CALLERS) {
      const res = await callProcedure(t, 'query', 'organiserRequests.mine', undefined, {
        cookie: w.cookieOf(caller),
      });
      if (caller === 'signed out') expect(res.status).toBe(401);
      else if (caller === 'buyer') expect(res.data).toMatchObject({ status: 'pending' });
      else expect(res.data, caller).toBeNull();
    }
  });

  it('console.acceptInvitation: only the invited address may accept; everyone else changes nothing', async () => {
    const invitee = await account(t);
    const { token } = await invitedThroughOwner(t, w, invitee.email);
    for (const caller of CALLERS) {
      const res = await callProcedure(
        t,
        'mutation',
        'console.acceptInvitation',
        { token },
        {
          cookie: w.cookieOf(caller),
        },
      );
      expect(res.status, caller).toBe(caller === 'signed out' ? 401 : 403);
    }
    const members = async () =>
      (
        await t.deps.db
          .select({ n: count() })
          .from(eventTeamMembers)
          .where(
            and(eq(eventTeamMembers.eventId, w.event.eventId), eq(eventTeamMembers.userId, invitee.userId)),
          )
      )[0]!.n;
    expect(await members()).toBe(0);
    const accepted = await callProcedure(
      t,
      'mutation',
      'console.acceptInvitation',
      { token },
      {
        cookie: invitee.cookie,
      },
    );
    expect(accepted.status).toBe(200);
    expect(await members()).toBe(1);
    // An unknown token is not found for everyone, signed in or not.
    const unknown = await callProcedure(t, 'query', 'console.invitation', { token: 'nosuchtoken' });
    expect(unknown.status).toBe(404);
  });
});

describe('POST /api/organiser/events/:eventId/images (the editor’s uploads) × every caller', () => {
  let w: ConsoleWorld;
  beforeEach(async () => {
    w = await consoleWorld(t);
  });

  it('lets the event’s editors upload; anyone else is refused like for an event that does not exist', async () => {
    const image = await makeImage('png', 400, 400);
    const unknown = await uploadImage(t, NO_EVENT, 'artist', image, { cookie: w.people.owner.cookie });
    const statuses: Record<string, number> = {};
    for (const caller of CALLERS) {
      const files = () => readdirSync(path.join(t.dataDir, 'uploads'), { withFileTypes: true }).length;
      const before = existsSync(path.join(t.dataDir, 'uploads')) ? files() : 0;
      const res = await uploadImage(t, w.event.eventId, 'artist', image, { cookie: w.cookieOf(caller) });
      statuses[caller] = res.status;
      if (res.status === 404) expect(res.body, caller).toEqual(unknown.body);
      if (res.status !== 201) {
        const after = existsSync(path.join(t.dataDir, 'uploads')) ? files() : 0;
        expect(after, `${caller} stored nothing`).toBe(before);
      }
    }
    expect(statuses).toEqual({ ...EDIT, owner: 201, 'co-organiser': 201, admin: 201 });
    // The other organiser may upload to their own event.
    const own = await uploadImage(t, w.otherEvent.eventId, 'artist', image, {
      cookie: w.people['organiser of another event'].cookie,
    });
    expect(own.status).toBe(201);
  });
});
