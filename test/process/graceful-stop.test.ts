import { request } from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { FAULT_APP_SECRET, faultDataDir, signedInBuyer, waitUntil } from '../helpers/fault-process.ts';
import { countOf, createTicketedEvent, DETAILS, expectInventoryInvariant } from '../helpers/inventory.ts';
import { ONE_ADDRESS_CROWD_ENV, startServerProcess } from '../helpers/server-process.ts';
import { allowLocalServers } from '../mocks/server.ts';

const scratch = faultDataDir();
afterAll(() => scratch.remove());

const BUYERS = 60;

/**
 * Issue 22: `docker stop` and systemd send SIGTERM to the server process itself (the image and the unit
 * run `node --import tsx src-server/index.ts`, the command started here, not npm). Sent in the middle of
 * a burst of Proceeds, it must stop taking connections, answer every request it accepted, let the writes
 * land, close the database and exit 0 within its 10 s grace.
 */
it('SIGTERM during a burst of Proceeds: every accepted request answered, exit 0, database intact', async () => {
  allowLocalServers();
  const ev = createTicketedEvent(scratch.database.db, {
    now: new Date(),
    types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 1000 }],
  });
  const buyers = Array.from({ length: BUYERS }, () => signedInBuyer(scratch.database));
  const server = await startServerProcess({
    dataDir: scratch.dataDir,
    env: {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://tickets.example.in',
      ALLOW_PAYMENT_SIMULATOR: 'true',
      ALLOW_FILE_MAILBOX: 'true',
      APP_SECRET: FAULT_APP_SECRET,
      LOG_LEVEL: 'info',
      ...ONE_ADDRESS_CROWD_ENV,
    },
  });
  try {
    let answered = 0;
    let signalled = false;
    const results = buyers.map((buyer) =>
      proceed(server.port, buyer.cookie, ev).then((result) => {
        answered += 1;
        if (answered === 5 && !signalled) {
          signalled = true;
          server.child.kill('SIGTERM');
        }
        return result;
      }),
    );
    const outcomes = await Promise.all(results);
    await waitUntil(
      () => server.child.exitCode !== null,
      'the server to exit within its grace',
      () => server.output(),
    );
    expect(server.child.exitCode).toBe(0);
    expect(server.output()).toContain('shutting down');

    // A request either got a whole answer or was never taken in: the port was closed (ECONNREFUSED), or
    // its connection was still waiting to be accepted, or accepted with nothing read yet, when the server
    // stopped listening (ECONNRESET; the kernel or Node resets those). Such a request did nothing, so the
    // buyer's retry is safe: below, the database holds exactly the answered holds and no others.
    const failures = outcomes.filter((o) => o.kind === 'error');
    expect(failures.filter((o) => o.code !== 'ECONNREFUSED' && o.code !== 'ECONNRESET')).toEqual([]);
    const held = outcomes.filter((o) => o.kind === 'answer' && o.status === 200).length;
    expect(outcomes.filter((o) => o.kind === 'answer' && o.status !== 200)).toEqual([]);
    expect(held).toBeGreaterThanOrEqual(5);
    expect(held + failures.length).toBe(BUYERS);

    // Every answered hold is in the database, and nothing else is: no request was processed and then cut.
    expect(scratch.database.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(countOf(scratch.database.db, ev.ticketTypeIds[0]!).held).toBe(held * 2);
    expectInventoryInvariant(scratch.database.db);
  } finally {
    await server.stop('SIGKILL');
  }
}, 90_000);

type Outcome = { kind: 'answer'; status: number } | { kind: 'error'; code: string };

/** Proceed for two seats on a connection of its own (no keep-alive), as separate buyers' phones would. */
function proceed(port: number, cookie: string, ev: ReturnType<typeof createTicketedEvent>): Promise<Outcome> {
  const body = JSON.stringify({
    eventId: ev.eventId,
    selectedDate: ev.dateId,
    selectedSlot: ev.slotId,
    selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 2 }],
    ticketDetails: DETAILS,
  });
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/trpc/payments.start',
        method: 'POST',
        agent: false,
        headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ kind: 'answer', status: res.statusCode ?? 0 }));
        res.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ kind: 'error', code: err.code ?? err.message }),
        );
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ kind: 'error', code: err.code ?? err.message }),
    );
    req.end(body);
  });
}
