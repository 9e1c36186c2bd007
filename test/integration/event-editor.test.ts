import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EDITOR_MESSAGES } from '../../shared/event-editor-schemas.ts';
import { WAITLIST_MESSAGES } from '../../shared/waitlist-schemas.ts';
import { readEvent } from '../../src-server/services/catalog/events.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import type { ConsoleWorld } from '../helpers/console-world.ts';
import { account, consoleWorld, type Person } from '../helpers/engine-fixtures.ts';
import { expectInventoryInvariantOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

// Runs on both engines (vitest.config.ts ON_BOTH_ENGINES): the rows it reads are the engine's own tables.
const { eventDates, events, ticketTypes, holdItems } = tablesFor(testEngine());

// The test clock reads 2026-11-21T06:30Z (12:00 in India).
const DETAILS = {
  name: 'Monsoon Ragas',
  category: 'concerts',
  city: 'Pune',
  eventLocationText: 'Ganesh Kala Krida Manch, Swargate',
  googleMapsEmbedLink: 'https://maps.google.com/?q=Ganesh+Kala+Krida',
  description: 'An evening of Hindustani classical music.',
  ageRestrictions: 12,
  language: 'Hindi',
  termsAndConditions: ['Carry a photo ID.'],
  artists: [{ name: 'Kaushiki Chakraborty' }],
  platformFeeRate: 4,
};
const TICKET = {
  name: 'Gold',
  priceRupees: 1499.5,
  totalTickets: 100,
  maxPerOrder: 6,
  personAllowedPerTicket: 1,
  description: 'Front rows',
  benefits: ['Reserved seating'],
  isRefundable: true,
  onSale: true,
  saleOpensAt: null,
  saleClosesAt: null,
};

/** What the editor's mutations answer (each a subset). */
interface EditAnswer {
  version: number;
  eventId: string;
  dateId: string;
  slotId: string;
  created: number;
}

describe('the event editor over HTTP', () => {
  let t: TestApp;
  let organiser: Person;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    organiser = await account(t, 'organiser');
  });
  afterEach(async () => {
    await expectInventoryInvariantOn(t.deps.db);
    await t.close();
  });
  const eventRow = async (eventId: string) =>
    (await t.deps.db.select().from(events).where(eq(events.id, eventId)))[0]!;

  const call = async (kind: 'query' | 'mutation', name: string, input: unknown, cookie = organiser.cookie) =>
    callProcedure(t, kind, `organiser.${name}`, input, { cookie });
  const ok = async (name: string, input: unknown) => {
    const res = await call('mutation', name, input);
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    return res.data as EditAnswer;
  };
  const cityList = async (city: string) =>
    ((await callProcedure(t, 'query', 'events.list', { city })).data as { id: string }[]).map((e) => e.id);

  it('creates a draft the caller owns, builds two dates of slots and ticket types, publishes it for buyers', async () => {
    // A demo picture stands in for an upload here (test/integration/event-images.test.ts uploads).
    const { eventId, version: v1 } = (await ok('createEvent', {
      ...DETAILS,
      posterUrl: '/images/events/sufi-nights-delhi-poster.webp',
    })) as {
      eventId: string;
      version: number;
    };
    expect(v1).toBe(1);
    const row = await eventRow(eventId);
    expect(row).toMatchObject({
      ownerId: organiser.userId,
      status: 'draft',
      city: 'Pune',
      language: 'Hindi',
    });
    expect(await cityList('Pune')).not.toContain(eventId);
    const home = await callProcedure(t, 'query', 'console.myEvents', undefined, { cookie: organiser.cookie });
    expect(home.data).toMatchObject([{ id: eventId, status: 'draft', myRole: 'owner' }]);
    // The team previews the draft; buyers cannot see it.
    expect((await call('query', 'preview', { eventId })).data).toMatchObject({ name: 'Monsoon Ragas' });
    expect((await callProcedure(t, 'query', 'events.byId', { id: eventId })).status).toBe(404);

    const d1 = await ok('addDate', { eventId, version: v1, day: '2026-12-12' });
    const d2 = await ok('addDate', { eventId, version: d1.version, day: '2026-12-13' });
    const s1 = await ok('addSlot', {
      eventId,
      version: d2.version,
      dateId: d1.dateId,
      startTime: '18:30',
      endTime: '21:00',
    });
    const s2 = await ok('addSlot', {
      eventId,
      version: s1.version,
      dateId: d2.dateId,
      startTime: '18:30',
      endTime: '21:00',
    });
    const g = await ok('addTicketType', { eventId, version: s2.version, slotId: s1.slotId, ticket: TICKET });
    const s = await ok('addTicketType', {
      eventId,
      version: g.version,
      slotId: s1.slotId,
      ticket: { ...TICKET, name: 'Silver', priceRupees: 499, totalTickets: 200 },
    });
    const copied = await ok('copyTicketTypesToAllSlots', {
      eventId,
      version: s.version,
      fromSlotId: s1.slotId,
    });
    expect(copied.created).toBe(2);
    // Running it again adds nothing: the other slot already has both names.
    const again = await ok('copyTicketTypesToAllSlots', {
      eventId,
      version: copied.version,
      fromSlotId: s1.slotId,
    });
    expect(again.created).toBe(0);

    const editable = (await call('query', 'editableEvent', { eventId })).data as {
      version: number;
      status: string;
      dates: {
        slots: {
          startTime: string;
          tickets: { name: string; pricePaise: number; sold: number; held: number }[];
        }[];
      }[];
    };
    expect(editable.version).toBe(again.version);
    expect(editable.dates.map((d) => d.slots[0]!.startTime)).toEqual([
      '2026-12-12T13:00:00.000Z',
      '2026-12-13T13:00:00.000Z',
    ]);
    for (const date of editable.dates) {
      expect(date.slots[0]!.tickets.map((x) => [x.name, x.pricePaise, x.sold, x.held])).toEqual([
        ['Gold', 149_950, 0, 0],
        ['Silver', 49_900, 0, 0],
      ]);
    }
    // The event's own start and end follow its slots.
    expect(await eventRow(eventId)).toMatchObject({
      startTime: '2026-12-12T13:00:00.000Z',
      endTime: '2026-12-13T15:30:00.000Z',
    });

    const published = await ok('publish', { eventId, version: again.version });
    expect(published).toEqual({ published: true, version: again.version + 1 });
    expect(await cityList('Pune')).toContain(eventId);
    expect(await cityList('Mumbai')).not.toContain(eventId);

    const unpublished = await ok('unpublish', { eventId, version: published.version });
    expect(unpublished.version).toBe(published.version + 1);
    expect(await cityList('Pune')).not.toContain(eventId);
  });

  it('publishing lists what is missing and changes nothing', async () => {
    const { eventId } = await ok('createEvent', { ...DETAILS, description: '' });
    expect(await ok('publish', { eventId, version: 1 })).toEqual({
      published: false,
      missing: [
        'Add a description.',
        'Add a poster image.',
        'Add a date with a slot that has not started yet.',
      ],
    });
    const d = await ok('addDate', { eventId, version: 1, day: '2026-12-12' });
    const s = await ok('addSlot', {
      eventId,
      version: d.version,
      dateId: d.dateId,
      startTime: '18:30',
      endTime: '21:00',
    });
    // A ticket type whose sale has closed is not on sale.
    await ok('addTicketType', {
      eventId,
      version: s.version,
      slotId: s.slotId,
      ticket: { ...TICKET, saleClosesAt: '2026-11-21T06:00:00.000Z' },
    });
    const res = await ok('publish', { eventId, version: s.version + 1 });
    expect(res).toEqual({
      published: false,
      missing: [
        'Add a description.',
        'Add a poster image.',
        'Add a ticket type on sale to a slot that has not started yet.',
      ],
    });
    expect(await eventRow(eventId)).toMatchObject({
      status: 'draft',
      version: s.version + 1,
    });
  });

  it('refuses an edit based on a version someone else has already changed', async () => {
    const { eventId } = await ok('createEvent', DETAILS);
    await ok('updateDetails', { eventId, version: 1, ...DETAILS, name: 'First save' });
    const second = await call('mutation', 'updateDetails', {
      eventId,
      version: 1,
      ...DETAILS,
      name: 'Second save',
    });
    expect(second.body.error?.data.code).toBe('CONFLICT');
    expect(second.body.error?.message).toBe(
      'This event was changed by someone else. Reload to see their changes.',
    );
    expect(await eventRow(eventId)).toMatchObject({
      name: 'First save',
      version: 2,
    });
  });

  // Issue 19: how long a waiting-list offer holds its seats; 30 minutes unless the organiser says.
  it('stores the waiting-list offer time (5 to 1440 minutes) and keeps it when an edit omits it', async () => {
    const { eventId } = await ok('createEvent', DETAILS);
    const stored = async () => (await eventRow(eventId)).waitlistOfferMinutes;
    expect(await stored()).toBe(30);
    for (const minutes of [4, 1441, 10.5]) {
      const bad = await call('mutation', 'updateDetails', {
        eventId,
        version: 1,
        ...DETAILS,
        waitlistOfferMinutes: minutes,
      });
      expect(bad.body.error?.data.fieldErrors?.waitlistOfferMinutes).toBe(WAITLIST_MESSAGES.offerMinutes);
    }
    await ok('updateDetails', { eventId, version: 1, ...DETAILS, waitlistOfferMinutes: 15 });
    expect((await call('query', 'editableEvent', { eventId })).data).toMatchObject({
      waitlistOfferMinutes: 15,
    });
    await ok('updateDetails', { eventId, version: 2, ...DETAILS, name: 'Renamed' });
    expect(await stored()).toBe(15);
  });

  // Issue 19: the organiser's per-buyer maximum, stored, shown back to the editor, and kept by an edit
  // that leaves it out (an older page).
  it('stores the maximum tickets per buyer, refuses a bad one, and keeps it when an edit omits it', async () => {
    const { eventId } = await ok('createEvent', { ...DETAILS, maxTicketsPerBuyer: 4 });
    expect((await eventRow(eventId)).maxTicketsPerBuyer).toBe(4);
    const bad = await call('mutation', 'updateDetails', {
      eventId,
      version: 1,
      ...DETAILS,
      maxTicketsPerBuyer: 0,
    });
    expect(bad.body.error?.data.fieldErrors?.maxTicketsPerBuyer).toBe(EDITOR_MESSAGES.maxPerBuyerInvalid);
    await ok('updateDetails', { eventId, version: 1, ...DETAILS, maxTicketsPerBuyer: 6 });
    const editable = await call('query', 'editableEvent', { eventId });
    expect(editable.data).toMatchObject({ maxTicketsPerBuyer: 6 });
    await ok('updateDetails', { eventId, version: 2, ...DETAILS, name: 'Renamed' });
    expect((await eventRow(eventId)).maxTicketsPerBuyer).toBe(6);
    await ok('updateDetails', { eventId, version: 3, ...DETAILS, maxTicketsPerBuyer: null });
    expect((await eventRow(eventId)).maxTicketsPerBuyer).toBeNull();
  });

  // Issue 16 (ADR 0025): ticket transfers on by default with 1 per booking; switched off and limited by the
  // organiser through the editor's shared schema; kept by an edit that leaves them out.
  it('stores the transfer settings, refuses a bad limit with its message, and keeps them when an edit omits them', async () => {
    const { eventId } = await ok('createEvent', DETAILS);
    const settings = async () => {
      const row = await eventRow(eventId);
      return { allowed: row.transfersAllowed, max: row.maxTransfersPerBooking };
    };
    expect(await settings()).toEqual({ allowed: true, max: 1 });
    const bad = await call('mutation', 'updateDetails', {
      eventId,
      version: 1,
      ...DETAILS,
      maxTransfersPerBooking: 0,
    });
    expect(bad.body.error?.data.fieldErrors?.maxTransfersPerBooking).toBe('Enter a whole number from 1 to 5');
    await ok('updateDetails', {
      eventId,
      version: 1,
      ...DETAILS,
      transfersAllowed: false,
      maxTransfersPerBooking: 2,
    });
    expect((await call('query', 'editableEvent', { eventId })).data).toMatchObject({
      transfersAllowed: false,
      maxTransfersPerBooking: 2,
    });
    await ok('updateDetails', { eventId, version: 2, ...DETAILS, name: 'Renamed' });
    expect(await settings()).toEqual({ allowed: false, max: 2 });
  });

  // Issue 16: the buyer-cancellation policy, stored, shown back to the editor and on the event page,
  // kept by an edit that leaves it out; a percentage refund needs its percentage.
  it('stores the refund policy, shows it to buyers, refuses a bad one, and keeps it when an edit omits it', async () => {
    const { eventId } = await ok('createEvent', DETAILS);
    const policy = async () => {
      const row = await eventRow(eventId);
      return { cutoffHours: row.refundCutoffHours, rule: row.refundRule, percent: row.refundPercent };
    };
    expect(await policy()).toEqual({ cutoffHours: 24, rule: 'full', percent: null });
    const noPercent = await call('mutation', 'updateDetails', {
      eventId,
      version: 1,
      ...DETAILS,
      refundRule: 'percent',
      refundPercent: null,
    });
    expect(noPercent.body.error?.data.fieldErrors?.refundPercent).toBe(EDITOR_MESSAGES.refundPercentInvalid);
    const badCutoff = await call('mutation', 'updateDetails', {
      eventId,
      version: 1,
      ...DETAILS,
      refundCutoffHours: -1,
    });
    expect(badCutoff.body.error?.data.fieldErrors?.refundCutoffHours).toBe(
      EDITOR_MESSAGES.refundCutoffInvalid,
    );
    await ok('updateDetails', {
      eventId,
      version: 1,
      ...DETAILS,
      refundCutoffHours: 48,
      refundRule: 'percent',
      refundPercent: 75,
    });
    expect(await policy()).toEqual({ cutoffHours: 48, rule: 'percent', percent: 75 });
    expect((await call('query', 'editableEvent', { eventId })).data).toMatchObject({
      refundCutoffHours: 48,
      refundRule: 'percent',
      refundPercent: 75,
    });
    await ok('updateDetails', { eventId, version: 2, ...DETAILS, name: 'Renamed' });
    expect(await policy()).toEqual({ cutoffHours: 48, rule: 'percent', percent: 75 });
    expect((await readEvent(t.deps.db, eventId, { preview: true })).refundPolicy).toEqual({
      cutoffHours: 48,
      rule: 'percent',
      percent: 75,
    });
  });

  it('refuses bad input with a message per field', async () => {
    const bad = await call('mutation', 'createEvent', {
      ...DETAILS,
      name: '',
      city: 'Atlantis',
      platformFeeRate: 50,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.data.fieldErrors).toMatchObject({
      name: EDITOR_MESSAGES.nameRequired,
      city: EDITOR_MESSAGES.cityInvalid,
      platformFeeRate: EDITOR_MESSAGES.feeInvalid,
    });
    const long = await call('mutation', 'createEvent', { ...DETAILS, description: 'x'.repeat(5001) });
    expect(long.body.error?.data.fieldErrors?.description).toBe(
      'Description must be at most 5000 characters',
    );

    const { eventId } = await ok('createEvent', DETAILS);
    const past = await call('mutation', 'addDate', { eventId, version: 1, day: '2026-11-20' });
    expect(past.body.error).toMatchObject({
      message: EDITOR_MESSAGES.dayPast,
      data: { code: 'BAD_REQUEST' },
    });
    const d = await ok('addDate', { eventId, version: 1, day: '2026-11-21' });
    // Today, but 11:00 in India has passed at 12:00.
    const started = await call('mutation', 'addSlot', {
      eventId,
      version: d.version,
      dateId: d.dateId,
      startTime: '11:00',
      endTime: '13:00',
    });
    expect(started.body.error?.message).toBe(EDITOR_MESSAGES.slotPast);
    const empty = await call('mutation', 'addSlot', {
      eventId,
      version: d.version,
      dateId: d.dateId,
      startTime: '20:00',
      endTime: '20:00',
    });
    expect(empty.body.error?.data.fieldErrors?.endTime).toBe(EDITOR_MESSAGES.slotEndEqualsStart);
    const s = await ok('addSlot', {
      eventId,
      version: d.version,
      dateId: d.dateId,
      startTime: '19:00',
      endTime: '21:00',
    });
    const negative = await call('mutation', 'addTicketType', {
      eventId,
      version: s.version,
      slotId: s.slotId,
      ticket: { ...TICKET, totalTickets: -5, priceRupees: 10.005 },
    });
    expect(negative.status).toBe(400);
    expect(negative.body.error?.message).toMatch(/Capacity|Price/);
    expect(await t.deps.db.select().from(ticketTypes)).toEqual([]);
  });

  it('refuses a day the event already has, also one stored as a show time by an older release', async () => {
    const { eventId } = await ok('createEvent', DETAILS);
    const d = await ok('addDate', { eventId, version: 1, day: '2026-12-12' });
    const again = await call('mutation', 'addDate', { eventId, version: d.version, day: '2026-12-12' });
    expect(again.body.error).toMatchObject({
      message: EDITOR_MESSAGES.dateExists,
      data: { code: 'CONFLICT', fieldErrors: { day: EDITOR_MESSAGES.dateExists } },
    });
    // The demo's events and a previous release's store a date as the show's start: 19:30 in India on
    // 20 Dec is 14:00Z. The editor's own dates are midnight, so the day is what is compared.
    await t.deps.db
      .insert(eventDates)
      .values({ id: 'date-older-release', eventId, dateOfEvent: '2026-12-20T14:00:00.000Z', isLive: true });
    const sameDay = await call('mutation', 'addDate', { eventId, version: d.version, day: '2026-12-20' });
    expect(sameDay.body.error?.message).toBe(EDITOR_MESSAGES.dateExists);
    // Late in the evening in India is already the next day in UTC (and the other way round): not taken.
    await t.deps.db
      .insert(eventDates)
      .values({ id: 'date-late-show', eventId, dateOfEvent: '2026-12-21T19:00:00.000Z', isLive: true });
    expect(
      (await call('mutation', 'addDate', { eventId, version: d.version, day: '2026-12-22' })).body.error
        ?.message,
    ).toBe(EDITOR_MESSAGES.dateExists);
    await ok('addDate', { eventId, version: d.version, day: '2026-12-21' });
  });

  it('takes an end earlier than the start as the next day: a show running past midnight', async () => {
    const { eventId } = await ok('createEvent', DETAILS);
    const d = await ok('addDate', { eventId, version: 1, day: '2026-12-31' });
    const s = await ok('addSlot', {
      eventId,
      version: d.version,
      dateId: d.dateId,
      startTime: '22:00',
      endTime: '02:30',
    });
    const editable = (await call('query', 'editableEvent', { eventId })).data as {
      dates: { slots: { id: string; startTime: string; endTime: string }[] }[];
    };
    // 22:00 on 31 Dec to 02:30 on 1 Jan, India time.
    expect(editable.dates[0]!.slots).toEqual([
      expect.objectContaining({
        id: s.slotId,
        startTime: '2026-12-31T16:30:00.000Z',
        endTime: '2026-12-31T21:00:00.000Z',
      }),
    ]);
    expect(await eventRow(eventId)).toMatchObject({
      startTime: '2026-12-31T16:30:00.000Z',
      endTime: '2026-12-31T21:00:00.000Z',
    });
  });

  it('refuses a second live slot starting when another of the event starts (added or moved there), beside the start field', async () => {
    const { eventId } = await ok('createEvent', DETAILS);
    const d = await ok('addDate', { eventId, version: 1, day: '2026-12-12' });
    const first = await ok('addSlot', {
      eventId,
      version: d.version,
      dateId: d.dateId,
      startTime: '18:30',
      endTime: '21:00',
    });
    // The seller's walk-through: the same date and start again (a different end changes nothing).
    const twin = await call('mutation', 'addSlot', {
      eventId,
      version: first.version,
      dateId: d.dateId,
      startTime: '18:30',
      endTime: '22:00',
    });
    expect(twin.body.error).toMatchObject({
      message: EDITOR_MESSAGES.slotStartTaken,
      data: { code: 'CONFLICT', fieldErrors: { startTime: EDITOR_MESSAGES.slotStartTaken } },
    });
    // Another time that day is a second show; moving it onto the first's start is refused the same way.
    const matinee = await ok('addSlot', {
      eventId,
      version: first.version,
      dateId: d.dateId,
      startTime: '14:00',
      endTime: '16:30',
    });
    const moved = await call('mutation', 'updateSlotTime', {
      eventId,
      version: matinee.version,
      slotId: matinee.slotId,
      startTime: '18:30',
      endTime: '21:00',
    });
    expect(moved.body.error?.data).toMatchObject({
      code: 'CONFLICT',
      fieldErrors: { startTime: EDITOR_MESSAGES.slotStartTaken },
    });
    // A slot keeps its own start when only its end moves.
    const longer = await ok('updateSlotTime', {
      eventId,
      version: matinee.version,
      slotId: first.slotId,
      startTime: '18:30',
      endTime: '21:30',
    });
    // A cancelled slot is not live: its start may be used again.
    const cancelled = await ok('cancelSlot', { eventId, version: longer.version, slotId: first.slotId });
    await ok('addSlot', {
      eventId,
      version: cancelled.version,
      dateId: d.dateId,
      startTime: '18:30',
      endTime: '21:00',
    });
    const editable = (await call('query', 'editableEvent', { eventId })).data as {
      dates: { slots: { startTime: string; cancelled: boolean }[] }[];
    };
    expect(editable.dates[0]!.slots.filter((s) => !s.cancelled).map((s) => s.startTime)).toEqual([
      '2026-12-12T08:30:00.000Z',
      '2026-12-12T13:00:00.000Z',
    ]);
  });

  it("copies sale windows at the same distance from each slot's start, and no type into a cancelled slot", async () => {
    const { eventId } = await ok('createEvent', DETAILS);
    const d1 = await ok('addDate', { eventId, version: 1, day: '2026-12-13' });
    const d2 = await ok('addDate', { eventId, version: d1.version, day: '2026-12-14' });
    // The source: 13 Dec, 18:30 in India (13:00Z).
    const evening = await ok('addSlot', {
      eventId,
      version: d2.version,
      dateId: d1.dateId,
      startTime: '18:30',
      endTime: '21:00',
    });
    // A matinee the next day: 14 Dec, 14:00 in India (08:30Z), 28 h 30 min after the source.
    const matinee = await ok('addSlot', {
      eventId,
      version: evening.version,
      dateId: d2.dateId,
      startTime: '14:00',
      endTime: '16:30',
    });
    const gone = await ok('addSlot', {
      eventId,
      version: matinee.version,
      dateId: d2.dateId,
      startTime: '19:00',
      endTime: '21:00',
    });
    const cancelled = await ok('cancelSlot', { eventId, version: gone.version, slotId: gone.slotId });
    // Gold opens 1 Dec 10:00 in India (04:30Z) and closes 2 h before the show (16:30, 11:00Z);
    // Silver has no window at all.
    const g = await ok('addTicketType', {
      eventId,
      version: cancelled.version,
      slotId: evening.slotId,
      ticket: {
        ...TICKET,
        saleOpensAt: '2026-12-01T04:30:00.000Z',
        saleClosesAt: '2026-12-13T11:00:00.000Z',
      },
    });
    const s = await ok('addTicketType', {
      eventId,
      version: g.version,
      slotId: evening.slotId,
      ticket: { ...TICKET, name: 'Silver', priceRupees: 499, totalTickets: 200 },
    });
    const copied = await ok('copyTicketTypesToAllSlots', {
      eventId,
      version: s.version,
      fromSlotId: evening.slotId,
    });
    expect(copied.created).toBe(2);

    const rows = await t.deps.db
      .select({
        slotId: ticketTypes.slotId,
        name: ticketTypes.name,
        saleOpensAt: ticketTypes.saleOpensAt,
        saleClosesAt: ticketTypes.saleClosesAt,
        totalTickets: ticketTypes.totalTickets,
        availableTickets: ticketTypes.availableTickets,
      })
      .from(ticketTypes)
      // The copies in the order the test lists them (PostgreSQL keeps no order without one).
      .orderBy(ticketTypes.slotId, ticketTypes.name);
    expect(rows.filter((r) => r.slotId === gone.slotId)).toEqual([]);
    // Shifted by the 28 h 30 min between the shows: Gold opens 2 Dec 05:30 in India (00:00Z) and closes
    // 14 Dec 12:00 in India (06:30Z), two hours before the matinee, not a day early as before.
    expect(rows.filter((r) => r.slotId === matinee.slotId)).toEqual([
      {
        slotId: matinee.slotId,
        name: 'Gold',
        saleOpensAt: '2026-12-02T00:00:00.000Z',
        saleClosesAt: '2026-12-14T06:30:00.000Z',
        totalTickets: 100,
        availableTickets: 100,
      },
      {
        slotId: matinee.slotId,
        name: 'Silver',
        saleOpensAt: null,
        saleClosesAt: null,
        totalTickets: 200,
        availableTickets: 200,
      },
    ]);
  });

  it("answers NOT_FOUND for another event's date, slot or ticket type passed with one's own event", async () => {
    const w: ConsoleWorld = await consoleWorld(t);
    const { eventId } = await ok('createEvent', DETAILS);
    const cases = [
      ['addSlot', { dateId: w.event.dateId, startTime: '18:00', endTime: '20:00' }],
      ['removeDate', { dateId: w.event.dateId }],
      ['removeSlot', { slotId: w.event.slotId }],
      ['addTicketType', { slotId: w.event.slotId, ticket: TICKET }],
      ['updateTicketType', { ticketTypeId: w.event.ticketTypeIds[0], ticket: TICKET }],
      ['removeTicketType', { ticketTypeId: w.event.ticketTypeIds[0] }],
      ['copyTicketTypesToAllSlots', { fromSlotId: w.event.slotId }],
    ] as const;
    let version = 1;
    for (const [name, input] of cases) {
      const res = await call('mutation', name, { eventId, version, ...input });
      expect(res.body.error?.data.code, name).toBe('NOT_FOUND');
      // The refusal rolled the version claim back.
      version = (await eventRow(eventId)).version;
      expect(version).toBe(1);
    }
    expect(
      (await t.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, w.event.ticketTypeIds[0]!)))[0],
    ).toMatchObject({
      name: 'Gold Circle',
    });
  });
});

describe('edits never break what is sold', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    w = await consoleWorld(t);
  });
  afterEach(async () => {
    await expectInventoryInvariantOn(t.deps.db);
    await t.close();
  });

  const edit = (name: string, input: object, version: number) =>
    callProcedure(
      t,
      'mutation',
      `organiser.${name}`,
      { eventId: w.event.eventId, version, ...input },
      {
        cookie: w.people.owner.cookie,
      },
    );
  const type = async () =>
    (await t.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, w.event.ticketTypeIds[0]!)))[0]!;
  const version = async () =>
    (await t.deps.db.select().from(events).where(eq(events.id, w.event.eventId)))[0]!.version;
  const ticket = (overrides: object) => ({
    ticketTypeId: w.event.ticketTypeIds[0],
    ticket: { ...TICKET, name: 'Gold Circle', priceRupees: 999.99, ...overrides },
  });

  it('capacity cannot go below sold + held; raising and lowering it moves availability by the same amount', async () => {
    await proceed(t, w.people.buyer.cookie, w.event, 3);
    const low = await edit('updateTicketType', ticket({ totalTickets: 2 }), 1);
    expect(low.body.error?.data.code).toBe('CONFLICT');
    expect(low.body.error?.message).toBe(
      'Capacity cannot be lower than the 3 tickets already sold or held (0 sold, 3 held).',
    );
    expect(low.body.error?.data.fieldErrors?.totalTickets).toBe(low.body.error?.message);
    expect(await type()).toMatchObject({ totalTickets: 50, availableTickets: 47 });

    expect((await edit('updateTicketType', ticket({ totalTickets: 3 }), 1)).status).toBe(200);
    expect(await type()).toMatchObject({ totalTickets: 3, availableTickets: 0 });
    expect((await edit('updateTicketType', ticket({ totalTickets: 60 }), 2)).status).toBe(200);
    expect(await type()).toMatchObject({ totalTickets: 60, availableTickets: 57 });
  });

  it('a price change applies to new orders only', async () => {
    await proceed(t, w.people.buyer.cookie, w.event, 1);
    expect((await edit('updateTicketType', ticket({ priceRupees: 1200 }), 1)).status).toBe(200);
    await proceed(t, w.people['gate staff'].cookie, w.event, 1);
    expect(
      (await t.deps.db.select({ price: holdItems.pricePaise }).from(holdItems)).map((r) => r.price).sort(),
    ).toEqual([120_000, 99_999]);
  });

  it('a ticket type, slot or date with bookings cannot be deleted, only stopped from selling', async () => {
    await proceed(t, w.people.buyer.cookie, w.event, 1);
    const tries = [
      [
        'removeTicketType',
        { ticketTypeId: w.event.ticketTypeIds[0] },
        EDITOR_MESSAGES.hasBookings('ticket type'),
      ],
      ['removeSlot', { slotId: w.event.slotId }, EDITOR_MESSAGES.hasBookings('slot')],
      ['removeDate', { dateId: w.event.dateId }, EDITOR_MESSAGES.hasBookings('date')],
    ] as const;
    for (const [name, input, message] of tries) {
      const res = await edit(name, input, 1);
      expect(res.body.error?.message, name).toBe(message);
    }
    expect(await version()).toBe(1);
    expect((await edit('updateTicketType', ticket({ onSale: false, totalTickets: 50 }), 1)).status).toBe(200);
    expect(await type()).toMatchObject({ isLive: false, availableTickets: 49 });
    const buy = await callProcedure(
      t,
      'mutation',
      'payments.start',
      {
        eventId: w.event.eventId,
        selectedDate: w.event.dateId,
        selectedSlot: w.event.slotId,
        selectedTickets: [{ ticketTypeId: w.event.ticketTypeIds[0], quantity: 1 }],
        ticketDetails: { name: 'A', email: 'a@example.com', phone: '9876543210', state: 'Maharashtra' },
      },
      { cookie: w.people.admin.cookie },
    );
    expect(buy.body.error?.message).toBe('Gold Circle: Sold Out');
  });

  it('a cancelled event is not edited', async () => {
    await t.deps.db.update(events).set({ status: 'cancelled' }).where(eq(events.id, w.event.eventId));
    const res = await edit('updateTicketType', ticket({ totalTickets: 70 }), 1);
    expect(res.body.error?.message).toBe(EDITOR_MESSAGES.cancelledLocked);
  });
});
