import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { fakeClientDir } from '../helpers/fake-client.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { signUpInput } from './auth-helpers.ts';

/**
 * Issue 39: the public link base was built six ways, so a PUBLIC_URL with a trailing slash or a path gave
 * `//images/…` in one place, `/jalsa/ticket/…` in another and `/verify-email` in a third. Every link the
 * app hands out now starts with the same base, PUBLIC_URL's origin.
 */
describe.each([
  ['a trailing slash', 'https://tickets.example.in/'],
  ['a path', 'https://tickets.example.in/jalsa'],
])('links when PUBLIC_URL has %s', (_case, publicUrl) => {
  const base = 'https://tickets.example.in';
  let t: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = fakeClientDir();
    t = await createTestAppOn(testEngine(), { PUBLIC_URL: publicUrl }, { clientDir });
  });
  afterAll(async () => {
    await simulatorWebhooksDelivered(t.deps);
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('link previews: og:url and og:image', async () => {
    const html = await (await t.request('/')).text();
    expect(html).toContain(`<meta property="og:url" content="${base}/">`);
    expect(html).toContain(`<meta property="og:image" content="${base}/images/og-default.jpg">`);
  });

  it('the verification mail', async () => {
    const input = signUpInput();
    expect((await callProcedure(t, 'mutation', 'auth.signUp', input)).status).toBe(200);
    const { outbox } = tablesOf(t.deps.db);
    const [mail] = await t.deps.db.select().from(outbox).where(eq(outbox.to, input.email));
    expect(mail!.text).toContain(`${base}/verify-email?token=`);
  });

  it('the booking mail and the calendar file', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1);
    const res = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
    const { bookingId } = res.data as { bookingId: string };
    const ticketUrl = `${base}/ticket/${bookingId}`;
    const mail = (await t.deps.db.select().from(tablesOf(t.deps.db).outbox)).find((m) =>
      m.text.includes(bookingId),
    );
    expect(mail?.text).toContain(ticketUrl);

    const file = await t.request(`/api/tickets/${bookingId}.ics`, { headers: { cookie: buyer.cookie } });
    const entries = Object.values(ical.sync.parseICS(await file.text()));
    const entry = entries.find((e) => e?.type === 'VEVENT') as ical.VEvent;
    expect(String(entry.url)).toBe(ticketUrl);
  });
});
