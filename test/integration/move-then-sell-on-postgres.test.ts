import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecretFor } from '../../src-server/app-secret.ts';
import { databaseFile, openDatabase } from '../../src-server/db/client.ts';
import { runStatements } from '../../src-server/db/engine/reads.ts';
import { moveToPostgres } from '../../src-server/db/move-to-postgres.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { markEmailVerified } from '../../src-server/services/accounts/mark-email-verified.ts';
import type { GateScanResult } from '../../src-server/services/gate/gate-core.ts';
import { inventoryOf } from '../helpers/engine-inventory.ts';
import { restorePreviousRelease, V0_2_0_INSTALLATION } from '../helpers/previous-release.ts';
import { storefront } from '../helpers/storefront-http.ts';
import { createTestAppOn, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, scratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';

// Issue 38's proof of the move: an installation the previous release (v0.2.0) made with its own code
// (test/fixtures/previous-release: paid bookings with their QR codes, GST invoices, a buyer's
// cancellation with its credit notes, a check-in at the gate) is upgraded as a start upgrades it, moved
// with `npm run db:move-to-postgres`'s moveToPostgres into a scratch PostgreSQL, and the real app then
// runs on that database: through its HTTP interface the old tickets scan, a new buyer gets the next
// invoice numbers, and an old booking is refunded with the next credit note and its seats back.

const serverUrl = testPostgresUrl('move-then-sell-on-postgres.test.ts');
const old = V0_2_0_INSTALLATION;
const { eventId, slotId } = old.event;
const [gold, silver] = old.event.raw.ticketTypeIds as [string, string];

interface InvoiceSummary {
  issuer: string;
  number: string;
  creditNoteNumber: string | null;
}

describe.skipIf(serverUrl === undefined)(
  'an installation v0.2.0 made, moved to PostgreSQL, selling there',
  () => {
    let dataDir: string;
    let target: ScratchPostgres;
    let t: TestApp;
    let site: ReturnType<typeof storefront>;
    const upgradeLog: string[] = [];

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-move-sell-'));
      const file = databaseFile(dataDir);
      restorePreviousRelease(file);
      // The first start of this release upgrades it (the migrations since v0.2.0, after a backup), then stops.
      openDatabase(file, { log: (line) => upgradeLog.push(line) }).close();
      target = await scratchPostgres(serverUrl as string, 'jalsa_move_sell');
      await moveToPostgres({ sqliteFile: file, databaseUrl: target.url, appSecret: old.appSecret });
      t = await createTestAppOn('postgres', { DATABASE_URL: target.url }, { appSecret: old.appSecret });
      // As a server's start checks it: the moved installation's tickets were signed with this secret.
      await appSecretFor(t.deps.db, { configured: old.appSecret, dataDir: t.dataDir, now: t.clock.now() });
      site = storefront(t.request);
    }, 30_000);

    afterAll(async () => {
      await t?.close();
      await target?.drop({ waitForClosing: true });
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    /** available + active holds + confirmed = total for both types, and what is left of Gold. */
    async function expectInventory(goldLeft: number) {
      const counts = await runStatements(t.deps.db, (db) => inventoryOf(db, [gold, silver]));
      for (const c of counts) expect(c.available + c.held + c.sold, c.ticketTypeId).toBe(c.total);
      expect(counts.map((c) => c.available)).toEqual([goldLeft, 40]);
      // What the event page offers agrees.
      const page = await site.ok<unknown>('query', 'events.byId', { id: eventId });
      expect(availableOf(page.data, gold)).toBe(goldLeft);
    }

    async function invoicesOf(bookingId: string, cookie: string) {
      const answer = await site.ok<InvoiceSummary[]>('query', 'invoices.forBooking', { bookingId }, cookie);
      return answer.data
        .map(({ issuer, number, creditNoteNumber }) => ({ issuer, number, creditNoteNumber }))
        .sort((a, b) => a.number.localeCompare(b.number));
    }

    function scan(token: string, persons?: number) {
      return site.ok<GateScanResult>(
        'mutation',
        'gate.scan',
        {
          eventId,
          slotId,
          gate: 'South gate',
          deviceId: 'device-after-move',
          scanId: randomUUID(),
          token,
          ...(persons === undefined ? {} : { persons }),
        },
        old.staffCookie,
      );
    }

    it('upgraded, then moved what v0.2.0 sold: 7 Gold seats off sale, 13 left', async () => {
      expect(upgradeLog.join('\n')).toMatch(/before applying [1-9]\d* migration\(s\)/);
      await expectInventory(13);
    });

    it('a ticket issued before the move scans at the gate; the one checked in before answers already used', async () => {
      const { unscanned, checkedIn } = old.bookings;
      // The buyer's QR is the one v0.2.0 showed them.
      const ticket = await site.ok<{ qrToken: string; status: string }>(
        'query',
        'bookings.byId',
        { bookingId: unscanned.bookingId },
        unscanned.buyerCookie,
      );
      expect(ticket.data).toMatchObject({ status: 'confirmed', qrToken: unscanned.qrToken });

      const first = await scan(unscanned.qrToken as string);
      expect(first.data).toMatchObject({ outcome: 'ask', remaining: 3 });
      const admitted = await scan(unscanned.qrToken as string, 3);
      expect(admitted.data).toMatchObject({ outcome: 'admit', persons: 3, excess: 0 });

      const again = await scan(checkedIn.qrToken as string);
      expect(again.data).toMatchObject({ outcome: 'refuse', reason: 'used' });

      // The organiser's booking page lists the check-in v0.2.0's gate logged, and the one made now.
      const page = async (bookingId: string) =>
        (
          await site.ok<{ checkIns: unknown; usedAtGate: boolean }>(
            'query',
            'eventBookings.booking',
            { eventId, bookingId },
            old.organiserCookie,
          )
        ).data;
      const before = await page(checkedIn.bookingId);
      expect(before.usedAtGate).toBe(true);
      expect(JSON.stringify(before.checkIns)).toMatch(/"persons":2[^}]*"gate":"North gate"/);
      expect(JSON.stringify((await page(unscanned.bookingId)).checkIns)).toMatch(
        /"persons":3[^}]*"gate":"South gate"/,
      );
      await expectInventory(13);
    });

    it('a new buyer buys a ticket and gets the invoice numbers after the moved ones', async () => {
      const buyer = await site.signUpAndSignIn('Nisha Kulkarni', 'nisha@example.in');
      await markEmailVerified(t.deps.db, 'nisha@example.in', t.clock.now());
      const { started, confirmed } = await site.buy(
        buyer.cookie,
        { eventId, dateId: old.event.raw.dateId, slotId, ticketTypeId: gold },
        1,
      );
      expect(started.status, JSON.stringify(started.error)).toBe(200);
      expect(confirmed?.data.outcome, JSON.stringify(confirmed?.error)).toBe('booked');
      await simulatorWebhooksDelivered(t.deps);
      const bookingId = confirmed?.data.bookingId as string;

      // v0.2.0 numbered four sales in each series (the organiser's INV, the platform's fee PLF).
      const moved = (old.tables.invoices ?? []).map((i) => i.number);
      expect(moved.filter((n) => String(n).startsWith('INV/'))).toHaveLength(4);
      const invoices = await invoicesOf(bookingId, buyer.cookie);
      expect(invoices.map((i) => i.number)).toEqual(['INV/26-27/000005', 'PLF/26-27/000005']);
      for (const invoice of invoices) expect(moved).not.toContain(invoice.number);
      await expectNoNumberTwice();
      await expectInventory(12);
    });

    it('a booking made before the move is cancelled by its buyer: refunded, the next credit notes, seats back', async () => {
      const { toRefund, cancelled } = old.bookings;
      const cancel = await site.call(
        'mutation',
        'bookings.cancel',
        { bookingId: toRefund.bookingId },
        toRefund.buyerCookie,
      );
      expect(cancel.status, JSON.stringify(cancel.error)).toBe(200);

      // The moved cancellation keeps its notes; this one's are the next in each series.
      expect(
        (await invoicesOf(cancelled.bookingId, cancelled.buyerCookie)).map((i) => i.creditNoteNumber),
      ).toEqual(['CRN/26-27/000001', 'CRN/26-27/000001']);
      const invoices = await invoicesOf(toRefund.bookingId, toRefund.buyerCookie);
      expect(invoices.map((i) => [i.number, i.creditNoteNumber])).toEqual([
        ['INV/26-27/000004', 'CRN/26-27/000002'],
        ['PLF/26-27/000004', 'CRN/26-27/000002'],
      ]);
      const bookingPage = async (bookingId: string) =>
        (
          await site.ok<{ status: string; refund: { status: string; amountPaise: number } | null }>(
            'query',
            'eventBookings.booking',
            { eventId, bookingId },
            old.organiserCookie,
          )
        ).data;
      const booking = await bookingPage(toRefund.bookingId);
      expect(booking.status).toBe('cancelled');
      expect(booking.refund).toMatchObject({ status: 'processed' });
      expect(booking.refund?.amountPaise).toBeGreaterThan(2 * 118_000 - 1);
      // The refund v0.2.0 made for the earlier cancellation is still on its booking's page.
      expect(await bookingPage(cancelled.bookingId)).toMatchObject({
        status: 'cancelled',
        refund: { status: 'processed', amountPaise: 131_924 },
      });
      await expectNoNumberTwice();
      await expectInventory(14);
    });

    /** No invoice or credit-note number is used twice in one issuer's series. */
    async function expectNoNumberTwice() {
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ doc: string; issuer: string; number: string; n: number }>(
          `SELECT 'invoice' AS doc, issuer, number, count(*)::int AS n FROM invoices GROUP BY issuer, number
         UNION ALL
         SELECT 'credit note', issuer, number, count(*)::int FROM credit_notes GROUP BY issuer, number`,
        );
        expect(rows.filter((r) => r.n > 1)).toEqual([]);
      } finally {
        await client.end();
      }
    }
  },
);

/** A ticket type's `availableTickets` wherever the event page's data carries it. */
function availableOf(data: unknown, typeId: string): number | undefined {
  if (Array.isArray(data)) {
    for (const item of data) {
      const found = availableOf(item, typeId);
      if (found !== undefined) return found;
    }
  } else if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    if (record.id === typeId && typeof record.availableTickets === 'number') return record.availableTickets;
    for (const value of Object.values(record)) {
      const found = availableOf(value, typeId);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
