import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { changes } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createSessionSteps, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { setAccountRoleByEmail } from '../../src-server/services/roles/set-account-role.ts';
import { inventoryOf } from '../helpers/engine-inventory.ts';
import { waitUntil } from '../helpers/fault-process.ts';
import { createFakeResend, type FakeResend } from '../helpers/fault-resend.ts';
import { type Fleet, type FleetServer, startFleet } from '../helpers/postgres-server-fleet.ts';
import { proceedInput, storefront } from '../helpers/storefront-http.ts';
import { type ScratchPostgres, scratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { allowLocalServers } from '../mocks/server.ts';

// Issue 38: "with 3 servers, each confirmation mail is sent once and each expired hold released once".
// Three real servers share one PostgreSQL, every background job ticking every 200 ms on each of them;
// the mail goes to a fake Resend that counts every request it gets. Two layers make a job's work once
// (ADR 0035): each job runs on one server at a time (its advisory-lock leader), and each row is claimed
// by a conditional UPDATE (a mail's lease, a hold's `status = 'active'`), so a leader cut off mid-run and
// its successor cannot both finish the same row. Either layer alone keeps this file passing; with both
// taken out (leads always true, the claims unconditional) it fails: 41 requests to Resend for 30
// confirmations, and seats put back on sale twice.

const serverUrl = testPostgresUrl('postgres-jobs-once.test.ts');
const SERVERS = 3;

beforeEach(allowLocalServers);

interface LogLine {
  msg: string;
  job?: string;
  released?: number;
}

function logLines(server: FleetServer): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** How many holds this server's sweeper says it released, summed over its log. */
function releasedBy(server: FleetServer): number {
  return logLines(server)
    .filter((line) => line.msg === 'expired holds released')
    .reduce((sum, line) => sum + (line.released ?? 0), 0);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(serverUrl === undefined)(
  'three servers on one PostgreSQL: each job’s work done once',
  { timeout: 60_000 },
  () => {
    let database: ScratchPostgres;
    let fleet: Fleet | undefined;
    let db: PgDb;
    let fake: FakeResend;
    let resend: { url: string; close: () => Promise<void> };
    let sites: ReturnType<typeof storefront>[];
    let onSale: Awaited<ReturnType<ReturnType<typeof storefront>['publishEvent']>>;

    /** A verified account with a session, written straight into the database: its Cookie header. */
    async function verifiedAccount(email: string): Promise<string> {
      const now = new Date();
      const { token } = await runnerFor(db as unknown as Db).write(function* (tx) {
        const { users } = tablesOf(tx);
        const id = randomUUID();
        yield* changes(
          tx.insert(users).values({
            id,
            email,
            name: 'Jobs Buyer',
            phone: '9876543210',
            // Holding seats needs a verified address (issue 19).
            isEmailVerified: true,
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          }),
        );
        return yield* createSessionSteps(tx, id, now);
      });
      return `${SESSION_COOKIE}=${token}`;
    }

    const inventory = async () =>
      (await runnerFor(db as unknown as Db).read((d) => inventoryOf(d, [onSale.ticketTypeId])))[0]!;

    beforeAll(async () => {
      database = await scratchPostgres(serverUrl!, 'jalsa_jobs_once');
      fake = createFakeResend();
      resend = await fake.listen();
      fleet = await startFleet(SERVERS, database.url, {
        RESEND_API_KEY: 're_jobs_once',
        RESEND_BASE_URL: resend.url,
        // Resend's default 2 a second would spread the confirmations over many seconds.
        MAIL_SEND_PER_SECOND: '200',
      });
      db = await openPostgres(database.url, { poolSize: 2 });
      sites = fleet.servers.map((server) =>
        storefront((pathname, init) => fetch(`${server.baseURL}${pathname}`, init), server.baseURL),
      );
      const organiser = await verifiedAccount('organiser@example.in');
      await setAccountRoleByEmail(
        db as unknown as Db,
        { email: 'organiser@example.in', role: 'organiser', grantedBy: null },
        new Date(),
      );
      onSale = await sites[0]!.publishEvent(organiser, 'Jobs Night', 'Pune', new Date(), 200);
    }, 50_000);

    afterAll(async () => {
      await fleet?.stopAll();
      await db?.$client.end();
      await resend?.close();
      await database?.drop({ waitForClosing: true });
    });

    it('sends each booking’s confirmation mail exactly once, whichever server sold it', async () => {
      const buyers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => verifiedAccount(`buyer${i}@example.in`)),
      );
      const bought = await Promise.all(buyers.map((cookie, i) => sites[i % SERVERS]!.buy(cookie, onSale, 1)));
      for (const b of bought)
        expect(b.confirmed?.data.outcome, JSON.stringify(b.started.error)).toBe('booked');
      const bookingIds = bought.map((b) => b.confirmed!.data.bookingId!);
      const keys = bookingIds.map((id) => `booking-confirmed:${id}`).sort();

      const outbox = async () =>
        (
          await db.$client.query<{
            key: string;
            status: string;
            attempts: number;
            providerMessageId: string | null;
          }>(
            `select idempotency_key as key, status, attempts, provider_message_id as "providerMessageId"
             from outbox where idempotency_key like 'booking-confirmed:%' order by idempotency_key`,
          )
        ).rows;
      let rows = await outbox();
      const deadline = Date.now() + 20_000;
      while (rows.length < keys.length || rows.some((r) => r.status !== 'sent')) {
        if (Date.now() > deadline) throw new Error(`confirmations not all sent: ${JSON.stringify(rows)}`);
        await pause(100);
        rows = await outbox();
      }
      // Every server's sender ticks five times a second: a second more is room for any duplicate.
      await pause(1_000);
      rows = await outbox();

      // One outbox row per booking, sent at its first attempt, recording the one delivery's id.
      expect(rows.map((r) => r.key)).toEqual(keys);
      for (const row of rows) {
        expect(row, row.key).toMatchObject({ status: 'sent', attempts: 1 });
        expect(row.providerMessageId).toBe(fake.deliveries.find((d) => d.key === row.key)?.id);
      }
      // Resend was asked once per confirmation: a second request under the same key (which the real
      // Resend, like the fake, would answer without a second mail) would be a second send.
      const requested = fake.requests
        .map((r) => r.key!)
        .filter((key) => key.startsWith('booking-confirmed:'));
      expect(requested.sort()).toEqual(keys);
      expect(
        fake.deliveries
          .map((d) => d.key)
          .filter((key) => key.startsWith('booking-confirmed:'))
          .sort(),
      ).toEqual(keys);
      // And no message of any kind was asked for twice.
      expect(new Set(fake.requests.map((r) => r.key)).size).toBe(fake.requests.length);
    });

    it('releases each expired hold exactly once: its seats back once, its row ended once', async () => {
      const before = await inventory();
      expect(before.available + before.held + before.sold).toBe(before.total);
      const releasedBefore = fleet!.servers.map(releasedBy);

      // Buyers who Proceed (two seats each) and never pay.
      const HOLDERS = 24;
      const holders = await Promise.all(
        Array.from({ length: HOLDERS }, (_, i) => verifiedAccount(`holder${i}@example.in`)),
      );
      const started = await Promise.all(
        holders.map((cookie, i) =>
          sites[i % SERVERS]!.ok<{ holdId: string }>(
            'mutation',
            'payments.start',
            proceedInput(onSale, 2),
            cookie,
          ),
        ),
      );
      const holdIds = started.map((s) => s.data.holdId);
      expect(new Set(holdIds).size).toBe(HOLDERS);
      const holding = await inventory();
      expect(holding).toMatchObject({ available: before.available - 2 * HOLDERS, held: 2 * HOLDERS });

      // Their time runs out: every hold's expiry moved an hour into the past at once, so all three
      // servers' sweepers (were they to run) would find all of them due in the same tick.
      const anHourAgo = new Date(Date.now() - 60 * 60_000).toISOString();
      await db.$client.query('update holds set expires_at = $1 where id = any($2)', [anHourAgo, holdIds]);

      const holdRows = async () =>
        (
          await db.$client.query<{
            id: string;
            status: string;
            reason: string | null;
            endedAt: string | null;
          }>(
            `select id, status, release_reason as reason, ended_at as "endedAt" from holds where id = any($1)`,
            [holdIds],
          )
        ).rows;
      const deadline = Date.now() + 20_000;
      while ((await holdRows()).some((h) => h.status === 'active')) {
        if (Date.now() > deadline) throw new Error('the expired holds were not released');
        await pause(100);
      }
      // A second more: every server's sweeper ticks five more times over the released holds.
      await pause(1_000);

      const ended = await holdRows();
      expect(ended).toHaveLength(HOLDERS);
      for (const hold of ended) {
        expect(hold, hold.id).toMatchObject({ status: 'released', reason: 'expired' });
        expect(hold.endedAt, hold.id).not.toBeNull();
      }
      // The seats came back once: a second release of any hold would put two more seats on sale than
      // the type has (available + held + sold above the total).
      const after = await inventory();
      expect(after).toMatchObject({
        available: before.available,
        held: before.held,
        sold: before.sold,
        total: before.total,
      });
      expect(after.available + after.held + after.sold).toBe(after.total);

      // Each hold released by one sweep: the servers' own counts (said in their logs, written in blocks
      // at least every quarter second) add up to the holds, not more.
      await waitUntil(
        () =>
          fleet!.servers.reduce((sum, server, i) => sum + releasedBy(server) - releasedBefore[i]!, 0) >=
          HOLDERS,
        'the sweepers’ log lines',
        () => fleet!.servers.map((s) => s.output()).join('\n'),
      );
      await pause(500);
      const releasedNow = fleet!.servers.map((server, i) => releasedBy(server) - releasedBefore[i]!);
      expect(releasedNow.reduce((a, b) => a + b, 0)).toBe(HOLDERS);
    });
  },
);
