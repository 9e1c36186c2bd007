import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { appSecretFor } from '../../src-server/app-secret.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { addBuyerGstin } from '../../src-server/services/invoices/add-buyer-gstin.ts';
import { gstr1Tables } from '../../src-server/services/invoices/export-gstr1.ts';
import { renderInvoicePdf } from '../../src-server/services/invoices/invoice-pdf.ts';
import {
  getOrganiserProfile,
  saveOrganiserProfile,
} from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import {
  getInvoiceForDownload,
  listOwnBookingInvoices,
} from '../../src-server/services/invoices/read-invoices.ts';
import { setEventTax } from '../../src-server/services/invoices/set-event-tax.ts';
import { streamInvoicesCsv } from '../../src-server/services/invoices/stream-invoices-csv.ts';
import { createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { MUMBAI_TAX_PROFILE, saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';

// ADR 0045: the invoices' use cases (profile, owed invoices, reads, PDF, exports, the buyer's GSTIN),
// written once, on both engines, from the same installation: one made by the app on SQLite and, for
// PostgreSQL, moved there. Races run on two pools at once, as two app servers would.

interface World {
  t: TestApp;
  /** Registered organiser: two bookings invoiced at confirmation. */
  ownerId: string;
  eventId: string;
  invoiced: { bookingId: string; buyerId: string }[];
  /** Organiser with no profile yet: three bookings sold without an admission invoice. */
  lateId: string;
  owedBookings: string[];
}

const serverUrl = testPostgresUrl('engine-invoices.test.ts');
let world: World;
let target: ScratchPostgres | undefined;
/** What SQLite answered, for PostgreSQL's run to be compared with. */
const onSqlite = new Map<string, unknown>();

beforeAll(async () => {
  world = await buildInstallation();
  if (serverUrl) {
    target = await moveToScratchPostgres(world.t, serverUrl, 'jalsa_invoices');
  }
}, 60_000);

afterAll(async () => {
  await target?.drop({ waitForClosing: true });
});

/** The app's database on each engine: `pool` picks one of two servers' pools on PostgreSQL. */
type Engine = { db: (pool?: number) => Db; close: () => Promise<void> };

const engines: [string, () => Promise<Engine>][] = [
  ['SQLite', async () => ({ db: () => world.t.deps.db, close: async () => {} })],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const pools: PgDb[] = [
        await openPostgres(target!.url, { poolSize: 4 }),
        await openPostgres(target!.url, { poolSize: 4 }),
      ];
      return {
        db: (pool = 0) => pools[pool % 2] as unknown as Db,
        close: async () => {
          for (const pool of pools) await pool.$client.end();
        },
      };
    },
  ]);
}

describe.each(engines)('invoices, written once, on %s', (name, open) => {
  let engine: Engine;
  const now = () => world.t.clock.now();
  const platform = () => platformGstOf(world.t.deps.env);
  /** SQLite's answer is recorded; PostgreSQL's must equal it. */
  const same = (key: string, value: unknown) => {
    if (name === 'SQLite') onSqlite.set(key, value);
    else expect(value).toEqual(onSqlite.get(key));
  };
  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  it("lists a booking's invoices and credit notes with the same figures", async () => {
    const { bookingId, buyerId } = world.invoiced[0]!;
    const list = await listOwnBookingInvoices(engine.db(), buyerId, bookingId);
    expect(list.map((i) => i.kind)).toEqual(['admission', 'platform_fee']);
    expect(list[0]!.number).toMatch(/^INV\/\d\d-\d\d\/000001$/);
    same('list', list);
    await expect(listOwnBookingInvoices(engine.db(), world.ownerId, bookingId)).rejects.toThrow(
      'Booking not found',
    );
  });

  it('renders an invoice PDF with its number, GSTIN and tax heads', async () => {
    const { bookingId, buyerId } = world.invoiced[0]!;
    const [admission] = await listOwnBookingInvoices(engine.db(), buyerId, bookingId);
    const invoice = await getInvoiceForDownload(engine.db(), admission!.id, buyerId, 'none');
    const text = pdfPageText(await renderInvoicePdf(invoice));
    expect(text).toContain(`Invoice number: ${admission!.number}`);
    expect(text).toContain(`GSTIN: ${MUMBAI_TAX_PROFILE.gstin}`);
    expect(text).toMatch(/CGST/);
    same('pdf', text);
    // The organiser may download it too; another buyer may not.
    expect(await getInvoiceForDownload(engine.db(), admission!.id, world.ownerId, 'organiser')).toEqual(
      invoice,
    );
    await expect(
      getInvoiceForDownload(engine.db(), admission!.id, world.invoiced[1]!.buyerId, 'none'),
    ).rejects.toThrow('Invoice not found');
  });

  it('exports the GSTR-1 and the monthly CSV with the same rows', async () => {
    const month = now().toISOString().slice(0, 7);
    const tables = await gstr1Tables(engine.db(), world.ownerId, month);
    expect(tables.b2cs.split('\r\n').filter(Boolean).length).toBeGreaterThan(1);
    same('gstr1', tables);
    const csv = await new Response(streamInvoicesCsv(engine.db(), world.ownerId, month)).text();
    expect(csv).toContain('B2C');
    same('csv', csv);
  });

  it('saves a GST profile and sets an event’s tax', async () => {
    const saved = await saveOrganiserProfile(
      engine.db(),
      platform(),
      world.ownerId,
      organiserProfileSchema.parse({ ...MUMBAI_TAX_PROFILE, legalName: 'Tala Collective LLP (Mumbai)' }),
      now(),
    );
    expect(saved).toMatchObject({
      legalName: 'Tala Collective LLP (Mumbai)',
      complete: true,
      invoicesIssued: 0,
    });
    expect(await getOrganiserProfile(engine.db(), world.ownerId)).toMatchObject({
      legalName: 'Tala Collective LLP (Mumbai)',
      gstin: MUMBAI_TAX_PROFILE.gstin,
      taxInclusive: true,
    });
    await setEventTax(engine.db(), world.eventId, { taxRate: 12, taxInclusive: false });
    const { events: ev } = tablesOf(engine.db());
    const [row] = await engine
      .db()
      .select({ taxRate: ev.taxRate, taxInclusive: ev.taxInclusive })
      .from(ev)
      .where(eq(ev.id, world.eventId));
    expect(row).toEqual({ taxRate: 12, taxInclusive: false });
  });

  it('two servers saving the late organiser’s profile at once issue each owed invoice exactly once', async () => {
    const input = organiserProfileSchema.parse({ ...MUMBAI_TAX_PROFILE, legalName: 'Late Events LLP' });
    const saves = await Promise.all(
      [0, 1, 0, 1].map((pool) =>
        saveOrganiserProfile(engine.db(pool), platform(), world.lateId, input, now()),
      ),
    );
    expect(saves.reduce((n, s) => n + s.invoicesIssued, 0)).toBe(3);
    const { invoices } = tablesOf(engine.db());
    const issued = await engine
      .db()
      .select({ bookingId: invoices.bookingId, number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.issuer, world.lateId), eq(invoices.kind, 'admission')));
    expect(issued.map((i) => i.bookingId).sort()).toEqual([...world.owedBookings].sort());
    expect(issued.map((i) => i.number.slice(-6)).sort()).toEqual(['000001', '000002', '000003']);
  });

  it('a buyer adds their GSTIN: re-issued once, even when asked twice at once', async () => {
    const { bookingId, buyerId } = world.invoiced[1]!;
    const gstin = {
      buyerGstin: '29AABCT1332L1ZU',
      buyerLegalName: 'Tech Park Pvt Ltd',
      buyerAddress: 'Whitefield, Bengaluru 560066',
    };
    const outcomes = await Promise.allSettled(
      [0, 1].map((pool) => addBuyerGstin(engine.db(pool), buyerId, bookingId, gstin, now())),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const list = await listOwnBookingInvoices(engine.db(), buyerId, bookingId);
    expect(list).toHaveLength(4);
    expect(list.filter((i) => i.creditNoteNumber !== null)).toHaveLength(2);
    expect(list.filter((i) => i.buyerGstin === gstin.buyerGstin)).toHaveLength(2);
    same(
      'gstin',
      list.map(({ id: _id, creditNoteId: _c, issuedAt: _at, ...rest }) => rest),
    );
  });
});

/** A SQLite installation made by the app: two organisers, one registered, one not yet; five bookings. */
async function buildInstallation(): Promise<World> {
  const t = createTestApp();
  await appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const owner = createAccount(t, 'organiser');
  await saveTaxProfile(t, owner.userId);
  const ev = createTicketedEvent(t.deps.db, {
    name: 'Sunburn Arena Mumbai',
    types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
    platformFeeRate: 10,
  });
  t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId)).run();
  const invoiced = [];
  for (const quantity of [2, 1]) {
    const b = await buyTickets(t, ev, quantity);
    invoiced.push({ bookingId: b.bookingId, buyerId: b.buyer.userId });
  }
  const late = createAccount(t, 'organiser');
  const lateEvent = createTicketedEvent(t.deps.db, {
    name: 'Late Night Jazz',
    types: [{ name: 'Entry', pricePaise: 80_000, totalTickets: 20 }],
    platformFeeRate: 10,
  });
  t.deps.db.update(events).set({ ownerId: late.userId }).where(eq(events.id, lateEvent.eventId)).run();
  const owedBookings = [];
  for (const quantity of [1, 2, 1]) owedBookings.push((await buyTickets(t, lateEvent, quantity)).bookingId);
  return { t, ownerId: owner.userId, eventId: ev.eventId, invoiced, lateId: late.userId, owedBookings };
}
