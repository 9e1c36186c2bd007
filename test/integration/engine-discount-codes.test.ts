import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOUNT_MESSAGES, DISCOUNT_REFUSALS, type DiscountFields } from '../../shared/discount-schemas.ts';
import { appSecretFor } from '../../src-server/app-secret.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { events, ticketTypes } from '../../src-server/db/schema/catalog.ts';
import type { AppDeps } from '../../src-server/deps.ts';
import { DomainError } from '../../src-server/errors.ts';
import { quoteDiscount } from '../../src-server/services/checkout/quote-discount.ts';
import { ticketOptions } from '../../src-server/services/checkout/ticket-options.ts';
import { createDiscountCode } from '../../src-server/services/discounts/create-discount-code.ts';
import {
  type DiscountCodeRow,
  listDiscountCodes,
} from '../../src-server/services/discounts/list-discount-codes.ts';
import { setDiscountCodeActive } from '../../src-server/services/discounts/set-discount-code-active.ts';
import { updateDiscountCode } from '../../src-server/services/discounts/update-discount-code.ts';
import { measureSite } from '../../src-server/services/operations/site-health.ts';
import { createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent, type TicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

// Issue 38: the organiser's discount and access codes (create, change, switch off and on, list with
// their uses and the revenue they gave away), written once and run on both engines by the same calls:
// an installation made by the app on SQLite, with a code used in a booking, and for PostgreSQL the same
// installation moved there. Racing creations run on two pools at once, as two app servers would.

const serverUrl = testPostgresUrl('engine-discount-codes.test.ts');
let t: TestApp;
let target: ScratchPostgres | undefined;
let pools: PgDb[] = [];
let buyerId: string;
/** Gold ₹1,180 × 20, Silver ₹500 × 40, Backstage ₹2,000 × 10 (hidden: sold only with an access code). */
let ev: TicketedEvent;
/** Another organiser's event, whose types and codes are not `ev`'s. */
let other: TicketedEvent;
let otherCodeId: string;

beforeAll(async () => {
  t = createTestApp();
  appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const owner = createAccount(t, 'organiser');
  const stranger = createAccount(t, 'organiser');
  await saveTaxProfile(t, owner.userId);
  buyerId = createSignedInUser(t).userId;
  ev = createTicketedEvent(t.deps.db, {
    name: 'Sunburn Arena Mumbai',
    types: [
      { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
      { name: 'Silver', pricePaise: 50_000, totalTickets: 40 },
      { name: 'Backstage', pricePaise: 200_000, totalTickets: 10 },
    ],
  });
  other = createTicketedEvent(t.deps.db, { name: 'NH7 Weekender' });
  t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId)).run();
  t.deps.db.update(events).set({ ownerId: stranger.userId }).where(eq(events.id, other.eventId)).run();
  t.deps.db.update(ticketTypes).set({ isHidden: true }).where(eq(ticketTypes.id, BACKSTAGE())).run();
  // FESTIVE20 made through the console, and a buyer's booking of 2 Silver priced with it (₹200 off).
  const made = await callProcedure(
    t,
    'mutation',
    'console.createDiscountCode',
    { eventId: ev.eventId, code: { ...PERCENT, code: 'FESTIVE20', percentOff: 20 } },
    { cookie: owner.cookie },
  );
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const theirs = await callProcedure(
    t,
    'mutation',
    'console.createDiscountCode',
    { eventId: other.eventId, code: { ...PERCENT, code: 'THEIRS10', percentOff: 10 } },
    { cookie: stranger.cookie },
  );
  expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
  otherCodeId = (theirs.data as { id: string }).id;
  await buyTickets(t, { ...ev, ticketTypeIds: [SILVER()] }, 2, { extra: { discountCode: 'festive20' } });
  if (serverUrl) {
    target = await moveToScratchPostgres(t, serverUrl, 'jalsa_discount_codes');
    pools = [
      await openPostgres(target.url, { poolSize: 6 }),
      await openPostgres(target.url, { poolSize: 6 }),
    ];
  }
}, 120_000);

afterAll(async () => {
  for (const pool of pools) await pool.$client.end();
  await target?.drop({ waitForClosing: true });
  t?.close();
});

const GOLD = () => ev.ticketTypeIds[0]!;
const SILVER = () => ev.ticketTypeIds[1]!;
const BACKSTAGE = () => ev.ticketTypeIds[2]!;

const PERCENT: DiscountFields = {
  code: 'X',
  kind: 'percent',
  percentOff: 10,
  amountOffPaise: null,
  ticketTypeIds: null,
  validFrom: null,
  validUntil: null,
  maxUses: null,
  maxUsesPerBuyer: null,
  unlocksTicketTypeIds: null,
};

/** Each engine's database as services see it; on PostgreSQL, `pool` picks one of two app servers. */
const engines: [string, (pool?: number) => Db][] = [['SQLite', () => t.deps.db]];
if (serverUrl) engines.push(['PostgreSQL', (pool = 0) => pools[pool % pools.length] as unknown as Db]);

const now = () => t.clock.now();
const daysFromNow = (days: number) => new Date(now().getTime() + days * 86_400_000).toISOString();

/** The app's dependencies on this engine's database. */
const depsOn = (db: Db): AppDeps => ({ ...t.deps, db });

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** The buyer's "Apply code" on this engine. */
function quote(db: Db, ticketTypeId: string, quantity: number, code: string) {
  return quoteDiscount(depsOn(db), buyerId, {
    eventId: ev.eventId,
    selectedSlot: ev.slotId,
    selectedTickets: [{ ticketTypeId, quantity }],
    discountCode: code,
  });
}

/** What SQLite listed for the installation as the app made it, to compare PostgreSQL's with. */
const listedBefore = new Map<string, DiscountCodeRow[]>();

describe.each(engines)('discount and access codes, written once, on %s', (name, dbOf) => {
  it("lists the installation's code with its uses and the revenue it gave away, the same on both engines", async () => {
    const listed = await listDiscountCodes(dbOf(), ev.eventId);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      code: 'FESTIVE20',
      kind: 'percent',
      percentOff: 20,
      isActive: true,
      uses: 1,
      bookings: 1,
      // 20 % of 2 × ₹500, before tax.
      discountPaise: 20_000,
    });
    // Numbers, not PostgreSQL's text for a count and a sum.
    expect(typeof listed[0]!.bookings).toBe('number');
    expect(typeof listed[0]!.discountPaise).toBe('number');
    if (name === 'SQLite') listedBefore.set(name, listed);
    else if (listedBefore.has('SQLite')) expect(listed).toEqual(listedBefore.get('SQLite'));
  });

  it('a percentage code for one type, within a window and limits, is created, quoted, changed, and refused a name taken in another case', async () => {
    const db = dbOf();
    const fields: DiscountFields = {
      ...PERCENT,
      code: 'EarlyBird',
      percentOff: 15,
      ticketTypeIds: [GOLD(), GOLD()],
      validFrom: daysFromNow(-1),
      validUntil: daysFromNow(7),
      maxUses: 50,
      maxUsesPerBuyer: 2,
    };
    const { id } = await createDiscountCode(db, ev.eventId, fields, now());
    const created = (await listDiscountCodes(db, ev.eventId)).find((c) => c.id === id);
    expect(created).toEqual({
      id,
      code: 'EarlyBird',
      kind: 'percent',
      percentOff: 15,
      amountOffPaise: null,
      ticketTypeIds: [GOLD()],
      validFrom: fields.validFrom,
      validUntil: fields.validUntil,
      maxUses: 50,
      maxUsesPerBuyer: 2,
      unlocksTicketTypeIds: null,
      isActive: true,
      uses: 0,
      bookings: 0,
      discountPaise: 0,
    });
    expect(await quote(db, GOLD(), 2, 'earlybird')).toMatchObject({
      code: 'EarlyBird',
      discountPaise: 35_400,
    });
    const silver = await refusal(quote(db, SILVER(), 2, 'EARLYBIRD'));
    expect(silver.message).toBe(DISCOUNT_REFUSALS.notForTickets);

    await updateDiscountCode(
      db,
      ev.eventId,
      id,
      { ...fields, percentOff: 25, ticketTypeIds: [GOLD(), SILVER()], maxUses: 10 },
      now(),
    );
    expect((await listDiscountCodes(db, ev.eventId)).find((c) => c.id === id)).toMatchObject({
      percentOff: 25,
      ticketTypeIds: [GOLD(), SILVER()],
      maxUses: 10,
    });
    expect(await quote(db, SILVER(), 2, 'earlybird')).toMatchObject({ discountPaise: 25_000 });

    const taken = await refusal(createDiscountCode(db, ev.eventId, { ...PERCENT, code: 'festive20' }, now()));
    expect([taken.code, taken.message]).toEqual(['CONFLICT', DISCOUNT_MESSAGES.codeTaken]);
    const renamed = await refusal(
      updateDiscountCode(db, ev.eventId, id, { ...fields, code: 'Festive20' }, now()),
    );
    expect([renamed.code, renamed.message]).toEqual(['CONFLICT', DISCOUNT_MESSAGES.codeTaken]);
    // Its own name in another case is no conflict.
    await updateDiscountCode(db, ev.eventId, id, { ...fields, code: 'EARLYBIRD' }, now());
    // Another event's code is not there; another event's type is not one of this event's.
    const theirs = await refusal(
      updateDiscountCode(db, ev.eventId, otherCodeId, { ...fields, code: 'Someone' }, now()),
    );
    expect(theirs.code).toBe('NOT_FOUND');
    const foreign = await refusal(
      createDiscountCode(
        db,
        ev.eventId,
        { ...fields, code: 'Elsewhere', ticketTypeIds: other.ticketTypeIds },
        now(),
      ),
    );
    expect([foreign.code, foreign.message]).toEqual(['BAD_REQUEST', DISCOUNT_MESSAGES.typeUnknown]);
  });

  it('an access code unlocks the hidden type; switched off it unlocks nothing, switched on again it does', async () => {
    const db = dbOf();
    const deps = depsOn(db);
    const typesShown = async (code?: string) =>
      (await ticketOptions(deps, ev.eventId, code)).dates[0]!.slots[0]!.ticketTypes.map((type) => type.name);
    expect(await typesShown()).toEqual(['Gold', 'Silver']);
    const { id } = await createDiscountCode(
      db,
      ev.eventId,
      { ...PERCENT, code: 'VIP-PASS', kind: 'none', percentOff: null, unlocksTicketTypeIds: [BACKSTAGE()] },
      now(),
    );
    expect(await typesShown('vip-pass')).toEqual(['Gold', 'Silver', 'Backstage']);

    expect(await setDiscountCodeActive(db, ev.eventId, id, false, now())).toEqual({ id, isActive: false });
    expect(await typesShown('vip-pass')).toEqual(['Gold', 'Silver']);
    expect((await listDiscountCodes(db, ev.eventId)).find((c) => c.id === id)).toMatchObject({
      code: 'VIP-PASS',
      kind: 'none',
      unlocksTicketTypeIds: [BACKSTAGE()],
      isActive: false,
    });
    await setDiscountCodeActive(db, ev.eventId, id, true, now());
    expect(await typesShown('VIP-PASS')).toEqual(['Gold', 'Silver', 'Backstage']);
    const theirs = await refusal(setDiscountCodeActive(db, ev.eventId, otherCodeId, false, now()));
    expect(theirs.code).toBe('NOT_FOUND');
  });

  it('creations and renamings racing for one code, in any case, leave one code and a clear "already exists" to the others', async () => {
    const renamed = await Promise.all(
      ['Rainy1', 'Rainy2', 'Rainy3', 'Rainy4'].map((code) =>
        createDiscountCode(dbOf(), ev.eventId, { ...PERCENT, code }, now()),
      ),
    );
    const spellings = ['MONSOON', 'monsoon', 'Monsoon', 'mONSOON'];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 16; i += 1) {
      const code = spellings[i % spellings.length]!;
      work.push(
        i % 4 === 3
          ? updateDiscountCode(dbOf(i), ev.eventId, renamed[i >> 2]!.id, { ...PERCENT, code }, now())
          : createDiscountCode(dbOf(i), ev.eventId, { ...PERCENT, code }, now()),
      );
    }
    const results = await Promise.allSettled(work);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(DomainError);
        expect([r.reason.code, r.reason.message]).toEqual(['CONFLICT', DISCOUNT_MESSAGES.codeTaken]);
      }
    }
    const monsoon = (await listDiscountCodes(dbOf(), ev.eventId)).filter(
      (c) => c.code.toLowerCase() === 'monsoon',
    );
    expect(monsoon).toHaveLength(1);
  });

  it("the site's health reads the size of the database the app runs on", async () => {
    const db = dbOf();
    const sizeNow = async () =>
      Number(
        (
          (await (db as unknown as PgDb).execute(sql`select pg_database_size(current_database()) as n`))
            .rows[0] as {
            n: string;
          }
        ).n,
      );
    const before = name === 'PostgreSQL' ? await sizeNow() : 0;
    const figures = await measureSite({ ...t.deps, db });
    expect(figures.databaseOk).toBe(true);
    if (name === 'PostgreSQL') {
      expect(figures.databaseBytes).toBeGreaterThanOrEqual(Math.min(before, await sizeNow()));
      expect(figures.databaseBytes).toBeLessThanOrEqual(Math.max(before, await sizeNow()));
    } else {
      expect(figures.databaseBytes).toBeGreaterThan(0);
    }
  });
});
