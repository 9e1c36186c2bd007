import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, count, eq, gt, sum } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOns, addOnVariants, bookingAddOns } from '../../src-server/db/schema/add-ons.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { boxOfficeSales } from '../../src-server/db/schema/box-office.ts';
import { eventDates, events, slots, ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { discountCodes } from '../../src-server/db/schema/discounts.ts';
import { eInvoiceRegistrations } from '../../src-server/db/schema/e-invoices.ts';
import { gateScans } from '../../src-server/db/schema/gate.ts';
import { invoices, organiserProfiles } from '../../src-server/db/schema/invoices.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { waitingRooms } from '../../src-server/db/schema/on-sale.ts';
import { refundParts } from '../../src-server/db/schema/partial-refunds.ts';
import { attendeeNameSettings, ticketQuestions } from '../../src-server/db/schema/questions.ts';
import { quotas, quotaTicketTypes } from '../../src-server/db/schema/quotas.ts';
import {
  accountRoles,
  eventTeamMembers,
  organiserRequests,
  teamInvitations,
} from '../../src-server/db/schema/roles.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { appRouter } from '../../src-server/trpc/root.ts';
import { createBooking } from '../helpers/bookings.ts';
import {
  addTeamMember,
  CALLERS,
  type Caller,
  type ConsoleWorld,
  createAccount,
  createConsoleWorld,
  createPendingRequest,
  insertInvitation,
  inviteThroughOwner,
} from '../helpers/console-world.ts';
import { makeImage, uploadImage } from '../helpers/images.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

/**
 * Issue 14's access matrix: every organiser and admin procedure × {signed out, buyer, organiser of
 * another event, gate staff, box office (issue 40), co-organiser, owner, admin}. For each, the expected status per caller;
 * a refused call must change nothing, and a not-found refusal must be the very answer an id that does
 * not exist gets, so an event id reveals nothing about another organiser's event.
 */

type Expected = Record<Caller, 200 | 401 | 403 | 404 | 409>;

/** The console world, plus a booking of its event for the booking procedures. */
type World = ConsoleWorld & { bookingId?: string };

interface Case {
  kind: 'query' | 'mutation';
  expected: Expected;
  /** The input for one call; called afresh before each caller (removals need a member each time). */
  input: (w: World, t: TestApp) => Record<string, unknown> | undefined;
  /** The same input naming an event (or thing) that does not exist, for the 404 comparison. */
  unknown?: (w: World, t: TestApp) => Record<string, unknown>;
  /** What a refused call must leave unchanged. */
  state?: (t: TestApp) => unknown;
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

const tableCount = (
  t: TestApp,
  table:
    | typeof eventTeamMembers
    | typeof teamInvitations
    | typeof outbox
    | typeof gateScans
    | typeof boxOfficeSales,
) => t.deps.db.select({ n: count() }).from(table).get()!.n;

const NO_EVENT = 'evt-doesnotexist';
const countRows = (
  t: TestApp,
  table: typeof events | typeof eventDates | typeof slots | typeof ticketTypes,
) => t.deps.db.select({ n: count() }).from(table).get()!.n;

/** A date, a slot on it and (unless `bare`) a ticket type in it, nothing sold: things that may be removed. */
function addRemovable(t: TestApp, w: ConsoleWorld, bare = false) {
  const suffix = Math.random().toString(36).slice(2, 8);
  const dateId = `date-${suffix}`;
  const slotId = `slot-${suffix}`;
  const ticketTypeId = `tt-${suffix}`;
  t.deps.db
    .insert(eventDates)
    .values({ id: dateId, eventId: w.event.eventId, dateOfEvent: '2026-12-19T18:30:00.000Z' })
    .run();
  t.deps.db
    .insert(slots)
    .values({
      id: slotId,
      eventDateId: dateId,
      startTime: '2026-12-20T13:30:00.000Z',
      endTime: '2026-12-20T15:30:00.000Z',
    })
    .run();
  if (!bare) {
    t.deps.db
      .insert(ticketTypes)
      .values({
        id: ticketTypeId,
        slotId,
        name: 'Spare',
        pricePaise: 10_000,
        totalTickets: 5,
        availableTickets: 5,
      })
      .run();
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
function gateToken(t: TestApp, w: ConsoleWorld): string {
  const buyer = createSignedInUser(t);
  const { bookingId } = createBooking(t, {
    userId: buyer.userId,
    eventId: w.event.eventId,
    slotId: w.event.slotId,
  });
  return signTicketToken(t.deps.appSecret, bookingId);
}
/** An admission in the scan log (through the service, as a gate would make it), to be undone. */
function gateAdmission(t: TestApp, w: ConsoleWorld): string {
  const token = gateToken(t, w);
  const bookingId = token.slice(0, token.lastIndexOf('.'));
  const scanId = randomUUID();
  t.deps.db.update(bookings).set({ numberOfUserCheckedIn: 2 }).where(eq(bookings.id, bookingId)).run();
  t.deps.db
    .insert(gateScans)
    .values({
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
    })
    .run();
  return scanId;
}
const admittedCount = (t: TestApp) =>
  t.deps.db
    .select({ n: sum(bookings.numberOfUserCheckedIn) })
    .from(bookings)
    .get()?.n ?? null;

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
const setStatus = (t: TestApp, w: ConsoleWorld, status: 'draft' | 'published') =>
  t.deps.db.update(events).set({ status }).where(eq(events.id, w.event.eventId)).run();

type Fields = (w: World, t: TestApp) => Record<string, unknown>;

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
    input: (w, t) => ({ ...fields(w, t), eventId: w.event.eventId }),
    unknown: (w, t) => ({ ...fields(w, t), eventId: NO_EVENT }),
    ...(state ? { state } : {}),
  };
}
const eventQuery = (expected: Expected, fields?: Fields) => onEvent('query', expected, fields);
const eventMutation = (expected: Expected, fields: Fields, state: NonNullable<Case['state']>) =>
  onEvent('mutation', expected, fields, state);

const eventStatuses = (t: TestApp) => t.deps.db.select({ status: events.status }).from(events).all();
const gateState = (t: TestApp) => [tableCount(t, gateScans), admittedCount(t)];
const pendingRequests = (t: TestApp) =>
  t.deps.db
    .select({ n: count() })
    .from(organiserRequests)
    .where(eq(organiserRequests.status, 'pending'))
    .get()!.n;

const EDITOR_CASES: Record<string, Case> = {
  'organiser.createEvent': {
    kind: 'mutation',
    expected: ORGANISERS,
    input: () => DETAILS,
    state: (t) => countRows(t, events),
  },
  'organiser.editableEvent': eventQuery(EDIT),
  'organiser.preview': eventQuery(VIEW),
  'organiser.waitingRoom': eventQuery(EDIT),
  'organiser.updateWaitingRoom': eventMutation(
    EDIT,
    (_w, t) => ({
      enabled: true,
      opensAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
      admitPerMinute: 500,
    }),
    (t) => t.deps.db.select().from(waitingRooms).all(),
  ),
  'organiser.updateDetails': eventMutation(
    EDIT,
    () => ({ version: 1, ...DETAILS }),
    (t) => t.deps.db.select({ name: events.name, version: events.version }).from(events).all(),
  ),
  'organiser.addDate': eventMutation(
    EDIT,
    () => ({ version: 1, day: '2026-12-10' }),
    (t) => countRows(t, eventDates),
  ),
  'organiser.removeDate': {
    kind: 'mutation',
    expected: EDIT,
    input: (w, t) => ({ eventId: w.event.eventId, version: 1, dateId: addRemovable(t, w).dateId }),
    unknown: () => ({ eventId: NO_EVENT, version: 1, dateId: 'date-none' }),
    state: (t) => countRows(t, eventDates),
  },
  'organiser.addSlot': eventMutation(
    EDIT,
    (w) => ({ version: 1, dateId: w.event.dateId, startTime: '10:00', endTime: '12:00' }),
    (t) => countRows(t, slots),
  ),
  'organiser.removeSlot': {
    kind: 'mutation',
    expected: EDIT,
    input: (w, t) => ({ eventId: w.event.eventId, version: 1, slotId: addRemovable(t, w).slotId }),
    unknown: () => ({ eventId: NO_EVENT, version: 1, slotId: 'slot-none' }),
    state: (t) => countRows(t, slots),
  },
  'organiser.addTicketType': eventMutation(
    EDIT,
    (w) => ({ version: 1, slotId: w.event.slotId, ticket: TICKET }),
    (t) => countRows(t, ticketTypes),
  ),
  'organiser.updateTicketType': eventMutation(
    EDIT,
    (w) => ({ version: 1, ticketTypeId: w.event.ticketTypeIds[0], ticket: TICKET }),
    (t) => t.deps.db.select().from(ticketTypes).all(),
  ),
  'organiser.removeTicketType': {
    kind: 'mutation',
    expected: EDIT,
    input: (w, t) => ({
      eventId: w.event.eventId,
      version: 1,
      ticketTypeId: addRemovable(t, w).ticketTypeId,
    }),
    unknown: () => ({ eventId: NO_EVENT, version: 1, ticketTypeId: 'tt-none' }),
    state: (t) => countRows(t, ticketTypes),
  },
  'organiser.copyTicketTypesToAllSlots': {
    kind: 'mutation',
    expected: EDIT,
    input: (w, t) => {
      addRemovable(t, w, true);
      return { eventId: w.event.eventId, version: 1, fromSlotId: w.event.slotId };
    },
    unknown: (w) => ({ eventId: NO_EVENT, version: 1, fromSlotId: w.event.slotId }),
    state: (t) => countRows(t, ticketTypes),
  },
  'organiser.publish': {
    kind: 'mutation',
    expected: EDIT,
    input: (w, t) => {
      setStatus(t, w, 'draft');
      return { eventId: w.event.eventId, version: 1 };
    },
    unknown: () => ({ eventId: NO_EVENT, version: 1 }),
    state: eventStatuses,
  },
  'organiser.unpublish': eventMutation(EDIT, () => ({ version: 1 }), eventStatuses),
  'organiser.updateSlotTime': eventMutation(
    EDIT,
    (w) => ({ version: 1, slotId: w.event.slotId, startTime: '18:00', endTime: '22:00' }),
    (t) => t.deps.db.select({ start: slots.startTime }).from(slots).all(),
  ),
  'organiser.cancellationPreview': eventQuery(EDIT, (w) => ({ slotId: w.event.slotId })),
  'organiser.cancelSlot': eventMutation(
    EDIT,
    (w) => ({ version: 1, slotId: w.event.slotId }),
    (t) => t.deps.db.select({ cancelledAt: slots.cancelledAt }).from(slots).all(),
  ),
  'organiser.cancelEvent': eventMutation(CANCEL_EVENT, () => ({ version: 1 }), eventStatuses),
};

/** One booking's page and actions: the owner, co-organisers and admins (the buyer's details are on it). */
const theBooking: Fields = (w) => ({ bookingId: w.bookingId! });
const BOOKING_CASES: Record<string, Case> = {
  'eventBookings.booking': eventQuery(EDIT, theBooking),
  'eventBookings.cancel': eventMutation(EDIT, theBooking, (t) =>
    t.deps.db.select({ status: bookings.status }).from(bookings).all(),
  ),
  'eventBookings.resendTicket': eventMutation(EDIT, theBooking, (t) => tableCount(t, outbox)),
  'eventBookings.refundPart': eventMutation(
    EDIT,
    (w) => ({ bookingId: w.bookingId!, amountPaise: 100, reason: 'Goodwill' }),
    (t) => t.deps.db.select({ n: count() }).from(refundParts).get()!.n,
  ),
  // The owner's own failed e-invoice: only its issuer may retry it; the admin's is another issuer's.
  'invoices.retryEInvoice': {
    kind: 'mutation',
    expected: { ...ORGANISERS, 'organiser of another event': 404, admin: 404 },
    input: (w, t) => ({ invoiceId: failedEInvoiceOf(w, t) }),
    unknown: () => ({ invoiceId: randomUUID() }),
    state: (t) =>
      t.deps.db
        .select({ attempts: eInvoiceRegistrations.attempts, next: eInvoiceRegistrations.nextAttemptAt })
        .from(eInvoiceRegistrations)
        .all(),
  },
};

/** A B2B invoice of the owner's (for the matrix's booking) whose registration with the IRP gave up. */
function failedEInvoiceOf(w: World, t: TestApp): string {
  const id = 'inv_matrix_e_invoice';
  const at = t.clock.now().toISOString();
  t.deps.db
    .insert(invoices)
    .values({
      id,
      bookingId: w.bookingId!,
      kind: 'admission',
      documentType: 'tax_invoice',
      issuer: w.people.owner.userId,
      eventId: w.event.eventId,
      number: 'INV/26-27/000001',
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
    .onConflictDoNothing()
    .run();
  t.deps.db
    .insert(eInvoiceRegistrations)
    .values({
      invoiceId: id,
      issuer: w.people.owner.userId,
      status: 'failed',
      attempts: 8,
      nextAttemptAt: null,
      lastError: 'IRP: 2265: state code mismatch',
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing()
    .run();
  return id;
}

/** Gives every organiser and admin of the world a registered profile, so the e-invoicing setting may apply. */
function registeredProfiles(w: World, t: TestApp) {
  for (const who of [w.people.owner, w.people['organiser of another event'], w.people.admin]) {
    t.deps.db
      .insert(organiserProfiles)
      .values({
        userId: who.userId,
        legalName: 'Tala Collective LLP',
        address: '12 Hill Road, Mumbai',
        state: 'Maharashtra',
        gstin: '27AAPFU0939F1ZV',
        updatedAt: t.clock.now().toISOString(),
      })
      .onConflictDoNothing()
      .run();
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
const boxOfficeState = (t: TestApp) => [
  tableCount(t, boxOfficeSales),
  t.deps.db
    .select({ n: sum(ticketTypes.availableTickets) })
    .from(ticketTypes)
    .get()!.n,
];

/** A scan a gate device took offline, for `gate.upload`. */
const offlineAdmission = (w: World, t: TestApp) => ({
  scanId: randomUUID(),
  token: gateToken(t, w),
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
function insertDiscountCode(t: TestApp, eventId: string): string {
  const id = `dc-${randomUUID()}`;
  const fields = { ...discountFields(), code: `SEED${Math.random().toString(36).slice(2, 10)}` };
  t.deps.db
    .insert(discountCodes)
    .values({
      id,
      eventId,
      ...fields,
      kind: 'percent',
      codeKey: fields.code.toLowerCase(),
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    })
    .run();
  return id;
}

/**
 * Every code a call could have made or changed: a refused call adds none, renames none, deactivates
 * none. The untouched codes `insertDiscountCode` adds for the next caller are left out.
 */
const discountState = (t: TestApp) =>
  t.deps.db
    .select({ id: discountCodes.id, code: discountCodes.code, isActive: discountCodes.isActive })
    .from(discountCodes)
    .all()
    .filter((row) => !(row.code.startsWith('SEED') && row.isActive));

/** A ticket type's question as the console sends it (issue 40). */
const QUESTION = { label: 'Company?', kind: 'text', options: [], required: false, scope: 'booking' };

/** A question of the event's first ticket type, for the update and remove cases. */
function insertQuestion(t: TestApp, event: { eventId: string; ticketTypeIds: string[] }): string {
  const id = `q-${randomUUID()}`;
  const now = t.clock.now().toISOString();
  t.deps.db
    .insert(ticketQuestions)
    .values({
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
    })
    .run();
  return id;
}

/** Questions a call could have made, changed or removed; the untouched seeded ones are left out. */
const questionState = (t: TestApp) =>
  t.deps.db
    .select({ id: ticketQuestions.id, label: ticketQuestions.label, removedAt: ticketQuestions.removedAt })
    .from(ticketQuestions)
    .all()
    .filter((row) => !(row.label === 'Seeded?' && row.removedAt === null));

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
function insertQuota(t: TestApp, w: World): string {
  const id = `qt-${randomUUID()}`;
  seededQuotas.add(id);
  const now = t.clock.now().toISOString();
  t.deps.db
    .insert(quotas)
    .values({
      id,
      eventId: w.event.eventId,
      name: 'Seed',
      capacity: 1000,
      available: 1000,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  t.deps.db.insert(quotaTicketTypes).values({ quotaId: id, ticketTypeId: w.event.ticketTypeIds[0]! }).run();
  return id;
}

/**
 * What a call could have done to quotas: the ones made or changed (untouched seeds left out, as
 * `insertQuota` adds one for the 404 comparison too) and the seeded ones removed.
 */
const quotaState = (t: TestApp) => {
  const rows = t.deps.db
    .select({ id: quotas.id, name: quotas.name, capacity: quotas.capacity })
    .from(quotas)
    .all();
  const present = new Set(rows.map((row) => row.id));
  return {
    changed: rows.filter(
      (row) => !(seededQuotas.has(row.id) && row.name === 'Seed' && row.capacity === 1000),
    ),
    removed: [...seededQuotas].filter((id) => !present.has(id)),
  };
};

/** An add-on of the event with one size, for the update case and the gate's (ADR 0041). */
function insertAddOn(t: TestApp, w: ConsoleWorld): { addOnId: string; variantId: string } {
  const addOnId = `ao-${randomUUID()}`;
  const variantId = `av-${randomUUID()}`;
  const now = t.clock.now().toISOString();
  t.deps.db
    .insert(addOns)
    .values({
      id: addOnId,
      eventId: w.event.eventId,
      name: 'Seed',
      pricePaise: 50_000,
      taxRatePercent: 5,
      hsnSac: '6109',
      maxPerOrder: 2,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  t.deps.db
    .insert(addOnVariants)
    .values({ id: variantId, addOnId, name: 'M', stock: 10, available: 10, position: 0 })
    .run();
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
const addOnState = (t: TestApp) =>
  t.deps.db
    .select({ id: addOns.id, name: addOns.name, price: addOns.pricePaise })
    .from(addOns)
    .all()
    .filter((row) => row.name !== 'Seed');

/** A booking of the event with a T-shirt to hand over, for the gate's add-on procedures. */
function bookingWithAddOn(t: TestApp, w: ConsoleWorld): { bookingId: string; lineId: string } {
  const token = gateToken(t, w);
  const bookingId = token.slice(0, token.lastIndexOf('.'));
  const { addOnId, variantId } = insertAddOn(t, w);
  const lineId = `${bookingId}-a1`;
  t.deps.db
    .insert(bookingAddOns)
    .values({
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
    })
    .run();
  return { bookingId, lineId };
}

/** Add-ons marked given (a refused call marks none; the cases' own seeds are not given). */
const givenState = (t: TestApp) =>
  t.deps.db
    .select({ id: bookingAddOns.id, givenAt: bookingAddOns.givenAt })
    .from(bookingAddOns)
    .all()
    .filter((row) => row.givenAt !== null);

/** An admin deciding a pending organiser request. */
const decideRequest: Case = {
  kind: 'mutation',
  expected: ADMIN_ONLY,
  input: (_w, t) => ({ requestId: createPendingRequest(t, createAccount(t).userId) }),
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
    (w, t) => ({ discountCodeId: insertDiscountCode(t, w.event.eventId), code: discountFields() }),
    discountState,
  ),
  'console.setDiscountCodeActive': eventMutation(
    EDIT,
    (w, t) => ({ discountCodeId: insertDiscountCode(t, w.event.eventId), isActive: false }),
    discountState,
  ),
  'console.payoutStatement': eventQuery(VIEW_PAYOUTS, () => ({ month: '2026-11' })),
  'console.ticketQuestions': eventQuery(EDIT),
  'console.createQuestion': eventMutation(
    EDIT,
    (w) => ({ ticketTypeId: w.event.ticketTypeIds[0], question: QUESTION }),
    questionState,
  ),
  'console.updateQuestion': eventMutation(
    EDIT,
    (w, t) => ({ questionId: insertQuestion(t, w.event), question: { ...QUESTION, label: 'Changed?' } }),
    questionState,
  ),
  'console.removeQuestion': eventMutation(
    EDIT,
    (w, t) => ({ questionId: insertQuestion(t, w.event) }),
    questionState,
  ),
  'console.setAttendeeNames': eventMutation(
    EDIT,
    (w) => ({ ticketTypeId: w.event.ticketTypeIds[0], mode: 'required' }),
    (t) => t.deps.db.select().from(attendeeNameSettings).all(),
  ),
  'console.quotas': eventQuery(EDIT),
  'console.createQuota': eventMutation(EDIT, quotaFields, quotaState),
  'console.updateQuota': eventMutation(
    EDIT,
    (w, t) => ({ quotaId: insertQuota(t, w), ...quotaFields(w) }),
    quotaState,
  ),
  'console.removeQuota': eventMutation(EDIT, (w, t) => ({ quotaId: insertQuota(t, w) }), quotaState),
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
    (w, t) => ({ addOnId: insertAddOn(t, w).addOnId, ...addOnFields() }),
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
    state: (t) => [tableCount(t, teamInvitations), tableCount(t, outbox)],
  },
  'console.removeMember': {
    kind: 'mutation',
    expected: MANAGE_TEAM,
    input: (w, t) => {
      const member = createAccount(t);
      addTeamMember(t, w.event.eventId, member.userId, 'gate_staff');
      return { eventId: w.event.eventId, memberUserId: member.userId };
    },
    unknown: (w) => ({ eventId: 'evt-doesnotexist', memberUserId: w.people['gate staff'].userId }),
    state: (t) => tableCount(t, eventTeamMembers),
  },
  'console.cancelInvitation': {
    kind: 'mutation',
    expected: MANAGE_TEAM,
    input: (w, t) => {
      const { invitationId } = insertInvitation(t, {
        eventId: w.event.eventId,
        invitedBy: w.people.owner.userId,
      });
      return { eventId: w.event.eventId, invitationId };
    },
    unknown: () => ({ eventId: 'evt-doesnotexist', invitationId: 'inv-doesnotexist' }),
    state: (t) =>
      t.deps.db
        .select({ n: count() })
        .from(teamInvitations)
        .where(gt(teamInvitations.expiresAt, t.clock.now().toISOString()))
        .get()!.n,
  },
  'gate.sync': eventQuery(CHECK_IN, (w) => ({ slotId: w.event.slotId })),
  'gate.lookUp': eventQuery(CHECK_IN, (w) => ({ slotId: w.event.slotId, query: 'Test' })),
  'gate.dashboard': eventQuery(VIEW),
  'gate.addOns': eventQuery(CHECK_IN, (w, t) => ({ bookingId: bookingWithAddOn(t, w).bookingId })),
  'gate.markAddOnGiven': eventMutation(
    CHECK_IN,
    (w, t) => ({ ...bookingWithAddOn(t, w), gate: 'North gate' }),
    givenState,
  ),
  'gate.history': eventQuery(CHECK_IN, (w, t) => {
    const token = gateToken(t, w);
    return { bookingId: token.slice(0, token.lastIndexOf('.')) };
  }),
  'gate.scan': {
    kind: 'mutation',
    expected: CHECK_IN,
    input: (w, t) => ({ ...gateWhere(w), scanId: randomUUID(), token: gateToken(t, w), persons: 1 }),
    unknown: (w, t) => ({ ...gateWhere(w), eventId: NO_EVENT, scanId: randomUUID(), token: gateToken(t, w) }),
    state: gateState,
  },
  'gate.upload': eventMutation(
    CHECK_IN,
    (w, t) => ({ ...gateWhere(w), scans: [offlineAdmission(w, t)] }),
    gateState,
  ),
  'gate.undo': {
    kind: 'mutation',
    expected: CHECK_IN,
    input: (w, t) => ({
      ...gateWhere(w),
      undoId: randomUUID(),
      scanId: gateAdmission(t, w),
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
    state: (t) => t.deps.db.select({ n: count() }).from(organiserProfiles).get()!.n,
  },
  'invoices.eInvoicing': { kind: 'query', expected: ORGANISERS, input: () => undefined },
  'invoices.setEInvoicing': {
    kind: 'mutation',
    expected: ORGANISERS,
    input: (w, t) => {
      registeredProfiles(w, t);
      return { applies: true };
    },
    state: (t) =>
      t.deps.db.select({ since: organiserProfiles.eInvoicingSince }).from(organiserProfiles).all(),
  },
  'invoices.setEventTaxRate': eventMutation(
    EDIT,
    () => ({ taxRate: 5 }),
    (t) => t.deps.db.select({ rate: events.taxRate }).from(events).all(),
  ),
  'invoices.forEvent': eventQuery(VIEW_SALES, () => ({ bookings: ['bk_any'] })),
  'admin.organiserRequests': { kind: 'query', expected: ADMIN_ONLY, input: () => undefined },
  'admin.approveRequest': decideRequest,
  'admin.declineRequest': decideRequest,
  'admin.setOrganiser': {
    kind: 'mutation',
    expected: ADMIN_ONLY,
    input: (_w, t) => ({ email: createAccount(t).email, role: 'organiser' }),
    state: (t) =>
      t.deps.db.select({ n: count() }).from(accountRoles).where(eq(accountRoles.role, 'organiser')).get()!.n,
  },
  'admin.organisers': { kind: 'query', expected: ADMIN_ONLY, input: () => ({ page: 1 }) },
  'admin.events': { kind: 'query', expected: ADMIN_ONLY, input: () => ({ page: 1 }) },
  'admin.totals': { kind: 'query', expected: ADMIN_ONLY, input: () => undefined },
  'admin.convenienceFeeCap': { kind: 'query', expected: ADMIN_ONLY, input: () => undefined },
  'admin.setConvenienceFeeCap': {
    kind: 'mutation',
    expected: ADMIN_ONLY,
    input: () => ({ percent: 1 }),
    state: (t) => t.deps.db.select({ rate: events.platformFeeRate }).from(events).all(),
  },
  'admin.unpublishEvent': {
    kind: 'mutation',
    expected: ADMIN_ONLY,
    input: (w) => ({ eventId: w.otherEvent.eventId, version: 1 }),
    state: (t) => t.deps.db.select({ status: events.status, version: events.version }).from(events).all(),
  },
  'admin.releaseEvent': {
    kind: 'mutation',
    expected: ADMIN_ONLY,
    input: (w, t) => {
      t.deps.db
        .update(events)
        .set({ status: 'draft', adminHoldAt: t.clock.now().toISOString() })
        .where(eq(events.id, w.otherEvent.eventId))
        .run();
      return { eventId: w.otherEvent.eventId };
    },
    state: (t) => t.deps.db.select({ heldAt: events.adminHoldAt }).from(events).all(),
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

describe.each(Object.entries(CASES))('%s', (name, c) => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = createTestApp();
    w = createConsoleWorld(t);
    // The booking procedures need a real booking (bought through the simulator) of the event.
    if (name in BOOKING_CASES) w.bookingId = (await buyTickets(t, w.event, 1)).bookingId;
  });
  afterEach(() => t.close());

  it.each(CALLERS)('as %s', async (caller) => {
    const expected = c.expected[caller];
    const input = c.input(w, t);
    const before = c.state?.(t);
    const res = await callProcedure(t, c.kind, name, input, { cookie: w.cookieOf(caller) });
    expect(res.status, JSON.stringify(res.body.error)).toBe(expected);
    if (expected === 401) expect(res.body.error?.message).toBe('User not authenticated');
    if (expected === 403) expect(res.body.error?.message).toBe('You are not allowed to do this.');
    if (expected === 404 && c.unknown) {
      const unknown = await callProcedure(t, c.kind, name, c.unknown(w, t), { cookie: w.cookieOf(caller) });
      expect({ status: res.status, message: res.body.error?.message }).toEqual({
        status: unknown.status,
        message: unknown.body.error?.message,
      });
    }
    if (c.state && expected !== 200) expect(c.state(t), 'a refused call changes nothing').toEqual(before);
    if (c.state && expected === 200) expect(c.state(t), 'an allowed call has its effect').not.toEqual(before);
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
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = createTestApp();
    w = createConsoleWorld(t);
    // Takings to leak: a paid order on the event.
    w.bookingId = (await buyTickets(t, w.event, 2)).bookingId;
  });
  afterEach(() => t.close());

  it('no query they may call answers with the takings, and the money procedures refuse them', async () => {
    const queries = [
      ...Object.entries(CASES)
        .filter(([, c]) => c.kind === 'query')
        .map(([name, c]) => ({ name, input: c.input(w, t) })),
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
    ])
      expect(allowed, name).not.toContain(name);
  });
});

describe('self-only and capability procedures', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(() => {
    t = createTestApp();
    w = createConsoleWorld(t);
  });
  afterEach(() => t.close());

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
    createPendingRequest(t, w.people.buyer.userId);
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
    const invitee = createAccount(t);
    const { token } = await inviteThroughOwner(t, w, invitee.email);
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
    const members = () =>
      t.deps.db
        .select({ n: count() })
        .from(eventTeamMembers)
        .where(
          and(eq(eventTeamMembers.eventId, w.event.eventId), eq(eventTeamMembers.userId, invitee.userId)),
        )
        .get()!.n;
    expect(members()).toBe(0);
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
    expect(members()).toBe(1);
    // An unknown token is not found for everyone, signed in or not.
    const unknown = await callProcedure(t, 'query', 'console.invitation', { token: 'nosuchtoken' });
    expect(unknown.status).toBe(404);
  });
});

describe('POST /api/organiser/events/:eventId/images (the editor’s uploads) × every caller', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(() => {
    t = createTestApp();
    w = createConsoleWorld(t);
  });
  afterEach(() => t.close());

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
