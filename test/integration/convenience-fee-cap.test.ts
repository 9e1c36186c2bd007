import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PLATFORM_FEE_RATE, MAX_CONVENIENCE_FEE_RATE } from '../../shared/pricing.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { feeAboveCapMessage } from '../../src-server/services/platform-settings/convenience-fee-cap.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent, expectInventoryInvariant } from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
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
  let admin: ReturnType<typeof createAccount>;
  let organiser: ReturnType<typeof createAccount>;
  beforeEach(() => {
    t = createTestApp();
    admin = createAccount(t, 'admin');
    organiser = createAccount(t, 'organiser');
  });
  afterEach(() => {
    expectInventoryInvariant(t.deps.db);
    t.close();
  });

  const rateOf = (eventId: string) =>
    t.deps.db.select({ rate: events.platformFeeRate }).from(events).where(eq(events.id, eventId)).get()?.rate;
  const setCap = (percent: unknown) =>
    callProcedure(t, 'mutation', 'admin.setConvenienceFeeCap', { percent }, { cookie: admin.cookie });

  it('is the editor limit until set; lowering it lowers every event above it, default-rate ones included, and checkout charges the cap', async () => {
    const cap = await callProcedure(t, 'query', 'admin.convenienceFeeCap', undefined, {
      cookie: admin.cookie,
    });
    expect(cap.data).toEqual({ percent: MAX_CONVENIENCE_FEE_RATE });

    const high = createTicketedEvent(t.deps.db, { platformFeeRate: 12 });
    const byDefault = createTicketedEvent(t.deps.db, { platformFeeRate: null });
    const low = createTicketedEvent(t.deps.db, { platformFeeRate: 2 });
    const cancelled = createTicketedEvent(t.deps.db, { platformFeeRate: 15 });
    t.deps.db.update(events).set({ status: 'cancelled' }).where(eq(events.id, cancelled.eventId)).run();
    const versions = t.deps.db.select({ id: events.id, version: events.version }).from(events).all();

    const saved = await setCap(3);
    expect(saved.status).toBe(200);
    // Above the cap: the 12 % event and the default-rate one (5 %); not the 2 % one or the cancelled one.
    expect(saved.data).toEqual({ cap: 3, lowered: 2 });
    expect(DEFAULT_PLATFORM_FEE_RATE).toBeGreaterThan(3);
    expect([
      rateOf(high.eventId),
      rateOf(byDefault.eventId),
      rateOf(low.eventId),
      rateOf(cancelled.eventId),
    ]).toEqual([3, 3, 2, 15]);
    // No event's version moved: an organiser's open editor is not told someone else changed it.
    expect(t.deps.db.select({ id: events.id, version: events.version }).from(events).all()).toEqual(versions);
    expect(
      (await callProcedure(t, 'query', 'admin.convenienceFeeCap', undefined, { cookie: admin.cookie })).data,
    ).toEqual({ percent: 3 });

    // The buyer is charged the capped fee: 3 % of the subtotal, IGST on top of it.
    const buyer = createAccount(t);
    const session = await proceed(t, buyer.cookie, high, 1);
    expect(session.feePaise).toBe(Math.round(session.subtotalPaise * 0.03));

    // Raising the cap later lowers nothing and raises nothing.
    expect((await setCap(10)).data).toEqual({ cap: 10, lowered: 0 });
    expect(rateOf(high.eventId)).toBe(3);
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
    expect(rateOf(eventId)).toBe(4);

    const update = await callProcedure(
      t,
      'mutation',
      'organiser.updateDetails',
      { eventId, version: 1, ...DETAILS, platformFeeRate: 9 },
      { cookie: organiser.cookie },
    );
    expect(update.body.error?.data.fieldErrors?.platformFeeRate).toBe(feeAboveCapMessage(4));
    expect(rateOf(eventId)).toBe(4);
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
