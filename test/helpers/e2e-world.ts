import path from 'node:path';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src-server/db/client.ts';
import { type Browser, launchBrowser, type Page } from './browser.ts';
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
    world.database = openDatabase(path.join(inject('e2eDataDir'), 'jalsa.db'));
  });
  afterAll(() => {
    world.database?.close();
  });
  return world;
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
  const headers = { origin: baseURL, 'content-type': 'application/json' };
  const start = await page.request.post('/trpc/payments.start', {
    headers,
    data: {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0], quantity }],
      ticketDetails: { name: 'Meera Iyer', email, phone: '+91 98765-43210', state: 'Karnataka' },
    },
  });
  expect(start.status(), await start.text()).toBe(200);
  const { orderId } = (await start.json()).result.data as { orderId: string };
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
