import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src-server/db/client.ts';
import { type Browser, DESKTOP, launchBrowser, newContext, type Page } from './browser.ts';
import { signInNewBuyer } from './buyer.ts';
import { e2eServer } from './e2e-server.ts';
import type { TicketedEvent } from './inventory.ts';

export interface E2eBrowser {
  browser: Browser;
}

export interface E2eWorld extends E2eBrowser {
  /** The shared e2e server's own database (e2e-global.ts), for setting up rows the test needs. */
  database: DatabaseHandle;
}

/** One Chromium for the describe block: launched before its tests, closed after them. */
export function useE2eBrowser(): E2eBrowser {
  const world = {} as E2eBrowser;
  beforeAll(async () => {
    world.browser = await launchBrowser();
  });
  afterAll(async () => {
    await world.browser?.close();
  });
  return world;
}

/**
 * One Chromium and the e2e server's database for the describe block (WAL lets this connection write beside
 * the server's), both closed after its tests.
 */
export function useE2eWorld(): E2eWorld {
  const world = useE2eBrowser() as E2eWorld;
  beforeAll(() => {
    world.database = openDatabase(path.join(e2eServer().dataDir, 'jalsa.db'));
  });
  afterAll(() => {
    world.database?.close();
  });
  return world;
}

export type E2eContext = Awaited<ReturnType<typeof newContext>>;

/**
 * The opening of a describe block that plays several people on the shared e2e server: the world, and
 * browser contexts its tests open on the server's address, all closed after its tests.
 */
export function useE2eContexts(world: E2eWorld) {
  const baseURL = e2eServer().baseURL;
  const contexts: E2eContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.context.close();
  });
  /** A new context (no one signed in) at `viewport`. */
  const open = async (viewport: { width: number; height: number } = DESKTOP): Promise<E2eContext> => {
    const c = await newContext(world.browser, baseURL, viewport);
    contexts.push(c);
    return c;
  };
  /** A new verified buyer, signed in, in a new context at `viewport`, with a page open. */
  const openSignedIn = async (viewport: { width: number; height: number } = DESKTOP) => {
    const c = await open(viewport);
    const buyer = await signInNewBuyer(world.database.db, c.context, baseURL);
    return { ...c, ...buyer, page: await c.context.newPage() };
  };
  return { baseURL, open, openSignedIn };
}

/**
 * The signed-in buyer on `page` pays for `quantity` tickets of the event's first type through the real API
 * and the offline simulator, as the checkout page does; answers the booking's id.
 */
export async function buyThroughSimulator(
  page: Page,
  baseURL: string,
  ev: TicketedEvent,
  email: string,
  quantity = 1,
): Promise<string> {
  const start = await startThroughApi(page, baseURL, ev, email, { quantity });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const { orderId } = start.body.result.data as { orderId: string };
  return payAndConfirm(page, baseURL, orderId);
}

/**
 * payments.start through the real API for the signed-in buyer on `page`: `quantity` of the event's first
 * type, with an admission pass when one is given. Answers the status and the tRPC envelope.
 */
export async function startThroughApi(
  page: Page,
  baseURL: string,
  ev: TicketedEvent,
  email: string,
  options: { quantity?: number; admissionPass?: string } = {},
) {
  const res = await page.request.post('/trpc/payments.start', {
    headers: { origin: baseURL, 'content-type': 'application/json' },
    data: {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: options.quantity ?? 1 }],
      ticketDetails: { name: 'Meera Iyer', email, phone: '+91 98765-43210', state: 'Karnataka' },
      ...(options.admissionPass ? { admissionPass: options.admissionPass } : {}),
    },
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tRPC envelope, read loosely in a test.
  return { status: res.status(), body: (await res.json()) as any };
}

/** The offline simulator pays the gateway order `orderId` and the buyer on `page` confirms it: booked. */
export async function payAndConfirm(page: Page, baseURL: string, orderId: string): Promise<string> {
  const headers = { origin: baseURL, 'content-type': 'application/json' };
  const pay = await page.request.post(`/api/simulator/orders/${orderId}/pay`, { headers });
  const paid = (await pay.json()) as Record<string, string>;
  const confirmed = await page.request.post('/trpc/payments.confirm', {
    headers,
    data: {
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    },
  });
  const outcome = (await confirmed.json()).result.data as { outcome: string; bookingId: string };
  expect(outcome.outcome).toBe('booked');
  return outcome.bookingId;
}
