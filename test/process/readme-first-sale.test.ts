import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { makeImage } from '../helpers/images.ts';
import { DETAILS as BUYER_DETAILS } from '../helpers/inventory.ts';
import { freePort, type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { allowLocalServers } from '../mocks/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Issue 37: README "First sale, step by step", from a bare machine to a paid booking, as written: the
 * shipped .env.example copied to .env with the lines the README says to fill in, the server started
 * from that folder as the service unit starts it, the first admin made with the documented commands,
 * an event built and published (with its poster) and a ticket bought with the payment simulator, all
 * over real HTTP. If the README's path breaks, this breaks.
 */
describe('README: from a bare machine to a paid booking', { timeout: 60_000 }, () => {
  let site: string;
  let server: ServerProcess;
  let origin: string;
  beforeAll(async () => {
    allowLocalServers();
    site = mkdtempSync(path.join(tmpdir(), 'jalsa-readme-'));
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // Step 1: cp .env.example .env, then fill in the first-run lines (no Razorpay or Resend yet).
    copyFileSync(path.join(ROOT, '.env.example'), path.join(site, '.env'));
    const filledIn: Record<string, string> = {
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: origin,
      ALLOW_PAYMENT_SIMULATOR: 'true',
      ALLOW_FILE_MAILBOX: 'true',
    };
    const dotEnv = readFileSync(path.join(site, '.env'), 'utf8').replace(
      /^([A-Z_]+)=.*$/gm,
      (line, key: string) => (key in filledIn ? `${key}=${filledIn[key]}` : line),
    );
    writeFileSync(path.join(site, '.env'), dotEnv);
    // Step 2: start it (the unit's ExecStart, from the folder holding .env).
    server = await startServerProcess({ dataDir: path.join(site, 'data'), port, asOperatorIn: site });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(site, { recursive: true, force: true });
  });

  /** `npm run <script> -- args` in the site's folder (it reads the same .env). */
  async function npmRun(script: string, ...args: string[]) {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), path.join(ROOT, script), ...args],
      { cwd: site, env: { PATH: process.env.PATH } },
    );
    return stdout;
  }

  async function call(kind: 'query' | 'mutation', procedure: string, input?: unknown, cookie?: string) {
    const headers: Record<string, string> = { origin };
    if (cookie) headers.cookie = cookie;
    const res =
      kind === 'query'
        ? await fetch(
            `${origin}/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
            { headers },
          )
        : await fetch(`${origin}/trpc/${procedure}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(input),
          });
    const body = (await res.json()) as { result?: { data: unknown }; error?: unknown };
    expect(res.status, `${procedure}: ${JSON.stringify(body.error)}`).toBe(200);
    return { data: body.result?.data as never, cookie: res.headers.getSetCookie()[0]?.split(';')[0] };
  }

  async function signUp(name: string, email: string) {
    const { cookie } = await call('mutation', 'auth.signUp', {
      name,
      email,
      mobile: '',
      password: 'a-long-password',
      confirmPassword: 'a-long-password',
      acceptTerms: true,
    });
    // The file mailbox delivers nothing: the operator verifies the address (README step 4).
    expect(await npmRun('scripts/user-verify.ts', email)).toBe(
      `${email} is now verified: this account can book.\n`,
    );
    return cookie!;
  }

  it('takes the first real sale', async () => {
    // Steps 3–4: sign up on the site, then make that account the admin.
    const admin = await signUp('Site Owner', 'owner@example.in');
    expect(await npmRun('scripts/user-role.ts', 'owner@example.in', 'admin')).toContain('is now an admin');

    // Step 5: the first event in the console: details, a poster (publishing needs one), a date, a slot,
    // a ticket type, publish.
    const details = {
      name: 'Opening Night',
      category: 'concerts',
      city: 'Pune',
      eventLocationText: 'Ganesh Kala Krida Manch, Swargate',
      googleMapsEmbedLink: 'https://maps.google.com/?q=Ganesh+Kala+Krida',
      description: 'The first show on the new site.',
      ageRestrictions: 0,
      language: 'Hindi',
      termsAndConditions: ['Carry a photo ID.'],
      artists: [{ name: 'House Band' }],
      platformFeeRate: 4,
    };
    const created = (await call('mutation', 'organiser.createEvent', details, admin)).data as {
      eventId: string;
      version: number;
    };
    const upload = await fetch(`${origin}/api/organiser/events/${created.eventId}/images?kind=poster`, {
      method: 'POST',
      headers: { origin, cookie: admin, 'content-type': 'application/octet-stream' },
      body: await makeImage('jpeg', 1200, 1600),
    });
    expect(upload.status).toBe(201);
    const { url: posterUrl } = (await upload.json()) as { url: string };
    let { version } = (
      await call(
        'mutation',
        'organiser.updateDetails',
        { eventId: created.eventId, version: created.version, ...details, posterUrl },
        admin,
      )
    ).data as { version: number };
    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const date = (
      await call('mutation', 'organiser.addDate', { eventId: created.eventId, version, day: inAWeek }, admin)
    ).data as { version: number; dateId: string };
    const slot = (
      await call(
        'mutation',
        'organiser.addSlot',
        {
          eventId: created.eventId,
          version: date.version,
          dateId: date.dateId,
          startTime: '19:00',
          endTime: '21:00',
        },
        admin,
      )
    ).data as { version: number; slotId: string };
    const ticket = (
      await call(
        'mutation',
        'organiser.addTicketType',
        {
          eventId: created.eventId,
          version: slot.version,
          slotId: slot.slotId,
          ticket: {
            name: 'Gold',
            priceRupees: 499,
            totalTickets: 100,
            maxPerOrder: 6,
            personAllowedPerTicket: 1,
            description: '',
            benefits: [],
            isRefundable: true,
            onSale: true,
            saleOpensAt: null,
            saleClosesAt: null,
          },
        },
        admin,
      )
    ).data as { version: number };
    version = ticket.version;
    const published = (
      await call('mutation', 'organiser.publish', { eventId: created.eventId, version }, admin)
    ).data as { published: boolean; missing?: string[] };
    expect(published).toMatchObject({ published: true });

    // Step 6: a buyer finds it, books two tickets and pays (the simulator's Pay).
    const listed = (await call('query', 'events.list', { city: 'Pune' })).data as { id: string }[];
    expect(listed.map((e) => e.id)).toContain(created.eventId);
    const editable = (await call('query', 'organiser.editableEvent', { eventId: created.eventId }, admin))
      .data as { dates: { id: string; slots: { id: string; tickets: { id: string }[] }[] }[] };
    const buyer = await signUp('Asha Verma', 'asha@example.in');
    const session = (
      await call(
        'mutation',
        'payments.start',
        {
          eventId: created.eventId,
          selectedDate: editable.dates[0]!.id,
          selectedSlot: slot.slotId,
          selectedTickets: [{ ticketTypeId: editable.dates[0]!.slots[0]!.tickets[0]!.id, quantity: 2 }],
          ticketDetails: { ...BUYER_DETAILS, email: 'asha@example.in' },
        },
        buyer,
      )
    ).data as CheckoutSession;
    expect(session.gateway).toBe('simulator');
    const pay = await fetch(`${origin}/api/simulator/orders/${session.orderId}/pay`, {
      method: 'POST',
      headers: { origin },
    });
    expect(pay.status).toBe(200);
    const paid = (await pay.json()) as Record<string, string>;
    await call(
      'mutation',
      'payments.confirm',
      {
        orderId: paid.razorpay_order_id,
        paymentId: paid.razorpay_payment_id,
        signature: paid.razorpay_signature,
      },
      buyer,
    );
    const mine = (await call('query', 'bookings.mine', undefined, buyer)).data as {
      eventId?: string;
      status?: string;
    }[];
    expect(mine).toHaveLength(1);
  });
});
