import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PLATFORM_FEE_RATE, MAX_CONVENIENCE_FEE_RATE } from '../../shared/pricing.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { feeAboveCapMessage } from '../../src-server/services/platform-settings/convenience-fee-cap.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { account, type Person } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, expectInventoryInvariantOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const DETAILS = {
  name: 'Monsoon Ragas',
  category: 'concerts',
  city: 'Pune',
  eventLocationText: 'Ganesh Kala Krida Manch, Swargate',
  googleMapsEmbedLink: '',
  description: 'An evening of Hindustani classical music.',
  ageRestrictions: null,
  language: 'Hindi',
  termsAndConditions: [],
  artists: [],
};

describe('the admin caps the convenience fee (issue 14: "convenience-fee rate (admin may cap it)")', () => {
  let t: TestApp;
  let admin: Person;
  let organiser: Person;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    admin = await account(t, 'admin');
    organiser = await account(t, 'organiser');
  });
  afterEach(async () => {
    await expectInventoryInvariantOn(t.deps.db);
    await t.close();
  });

  const rateOf = async (eventId: string) => {
    const { events } = tablesOf(t.deps.db);
    const [event] = await t.deps.db
      .select({ rate: events.platformFeeRate })
      .from(events)
      .where(eq(events.id, eventId));
    return event?.rate;
  };
  /** Every event's version, in the order of their ids (PostgreSQL's unordered scan follows updates). */
  const versionsOf = () => {
    const { events } = tablesOf(t.deps.db);
    return t.deps.db.select({ id: events.id, version: events.version }).from(events).orderBy(asc(events.id));
  };
  const setCap = (percent: unknown) =>
    callProcedure(t, 'mutation', 'admin.setConvenienceFeeCap', { percent }, { cookie: admin.cookie });

  it('is the editor limit until set; lowering it lowers every event above it, default-rate ones included, and checkout charges the cap', async () => {
    const cap = await callProcedure(t, 'query', 'admin.convenienceFeeCap', undefined, {
      cookie: admin.cookie,
    });
    expect(cap.data).toEqual({ percent: MAX_CONVENIENCE_FEE_RATE });

    const high = await createTicketedEventOn(t.deps.db, { platformFeeRate: 12 });
    const byDefault = await createTicketedEventOn(t.deps.db, { platformFeeRate: null });
    const low = await createTicketedEventOn(t.deps.db, { platformFeeRate: 2 });
    const cancelled = await createTicketedEventOn(t.deps.db, { platformFeeRate: 15 });
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ status: 'cancelled' }).where(eq(events.id, cancelled.eventId));
    const versions = await versionsOf();

    const saved = await setCap(3);
    expect(saved.status).toBe(200);
    // Above the cap: the 12 % event and the default-rate one (5 %); not the 2 % one or the cancelled one.
    expect(saved.data).toEqual({ cap: 3, lowered: 2 });
    expect(DEFAULT_PLATFORM_FEE_RATE).toBeGreaterThan(3);
    expect([
      await rateOf(high.eventId),
      await rateOf(byDefault.eventId),
      await rateOf(low.eventId),
      await rateOf(cancelled.eventId),
    ]).toEqual([3, 3, 2, 15]);
    // No event's version moved: an organiser's open editor is not told someone else changed it.
    expect(await versionsOf()).toEqual(versions);
    expect(
      (await callProcedure(t, 'query', 'admin.convenienceFeeCap', undefined, { cookie: admin.cookie })).data,
    ).toEqual({ percent: 3 });

    // The buyer is charged the capped fee: 3 % of the subtotal, IGST on top of it.
    const buyer = await account(t);
    const session = await proceed(t, buyer.cookie, high, 1);
    expect(session.feePaise).toBe(Math.round(session.subtotalPaise * 0.03));

    // Raising the cap later lowers nothing and raises nothing.
    expect((await setCap(10)).data).toEqual({ cap: 10, lowered: 0 });
    expect(await rateOf(high.eventId)).toBe(3);
  });

  it('the editor refuses a fee above the cap beside the field, and stores no rate as the cap when the default is above it', async () => {
    await setCap(4);
    const create = (input: object) =>
      callProcedure(t, 'mutation', 'organiser.createEvent', input, { cookie: organiser.cookie });
    const refused = await create({ ...DETAILS, platformFeeRate: 4.5 });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.data.fieldErrors?.platformFeeRate).toBe(feeAboveCapMessage(4));
    expect(feeAboveCapMessage(4)).toBe('Convenience fee can be at most 4 % on this site');

    const atCap = await create({ ...DETAILS, platformFeeRate: 4 });
    expect(atCap.status).toBe(200);
    const noRate = await create({ ...DETAILS, platformFeeRate: null });
    const { eventId } = noRate.data as { eventId: string };
    expect(await rateOf(eventId)).toBe(4);

    const update = await callProcedure(
      t,
      'mutation',
      'organiser.updateDetails',
      { eventId, version: 1, ...DETAILS, platformFeeRate: 9 },
      { cookie: organiser.cookie },
    );
    expect(update.body.error?.data.fieldErrors?.platformFeeRate).toBe(feeAboveCapMessage(4));
    expect(await rateOf(eventId)).toBe(4);
  });

  it('refuses a cap outside 0–20 % with a clear message, and only admins may set it', async () => {
    for (const bad of [-1, 21, 'ten', null]) {
      const res = await setCap(bad);
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error?.data.fieldErrors?.percent).toBe('Enter a percentage from 0 to 20');
    }
    const byOrganiser = await callProcedure(
      t,
      'mutation',
      'admin.setConvenienceFeeCap',
      { percent: 1 },
      { cookie: organiser.cookie },
    );
    expect(byOrganiser.status).toBe(403);
  });
});
