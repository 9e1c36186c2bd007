import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import jsQR from 'jsqr';
import ical from 'node-ical';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/client.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import {
  type Browser,
  type BrowserContext,
  expectNoSeriousA11yViolations,
  launchBrowser,
  newContext,
  PHONE,
} from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';

let counter = 0;

describe('My Bookings and the ticket page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('after a simulator purchase: the card, a scannable QR, the PDF and the .ics', async () => {
    const baseURL = e2eServer().baseURL;
    const { context: buyer, cspViolations } = await newContext(browser, baseURL);
    const email = await signUp(buyer, 'buyer');
    // Holding seats needs a verified address (issue 19): the buyer opens the link from the sign-up mail.
    await verifyFromMail(buyer, email);
    const purchase = await buyWithSimulator(buyer, email);

    // My Bookings shows the card.
    const page = await buyer.newPage();
    await page.goto('/my-bookings');
    const card = page.getByRole('article', { name: purchase.eventName });
    await card.waitFor();
    await card.getByText(`Booking ID: ${purchase.bookingId}`).waitFor();
    await card.getByText(`${purchase.ticketTypeName} x 1`).waitFor();
    await card.getByRole('img', { name: `QR code for booking ${purchase.bookingId}` }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // The PDF and the calendar entry download from the card's buttons.
    const pdfDownload = page.waitForEvent('download');
    await card.getByRole('link', { name: 'Download Ticket' }).click();
    const pdf = readFileSync((await (await pdfDownload).path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfPageText(pdf)).toContain(purchase.bookingId);

    const icsDownload = page.waitForEvent('download');
    await card.getByRole('link', { name: 'Add to calendar' }).click();
    const calendar = ical.sync.parseICS(readFileSync((await (await icsDownload).path())!, 'utf8'));
    const entry = Object.values(calendar).find((c) => c?.type === 'VEVENT') as ical.VEvent;
    expect(entry.start.toISOString()).toBe(new Date(purchase.slotStart).toISOString());
    expect(String(entry.summary)).toBe(purchase.eventName);

    // The ticket page shows a QR that decodes to the signed token.
    await page.getByRole('link', { name: 'View ticket' }).first().click();
    await page.waitForURL(`**/ticket/${purchase.bookingId}`);
    await page.getByRole('heading', { name: purchase.eventName }).waitFor();
    await page.getByRole('button', { name: 'Print / Download Ticket' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    const qr = page.getByRole('img', { name: `QR code for booking ${purchase.bookingId}` });
    await qr.waitFor();
    const png = PNG.sync.read(await qr.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data.startsWith(`${purchase.bookingId}.`)).toBe(true);
    expect(cspViolations).toEqual([]);

    // The gate's own test (test/e2e/gate.test.ts) scans this kind of code with a fake camera.
    const { context: gate } = await newContext(browser, baseURL, PHONE);
    await signUp(gate, 'gate');

    // Someone else's ticket is not found, and the buyer is on no event's gate team (/check-in is /gate now).
    const strangerPage = await gate.newPage();
    await strangerPage.goto(`/ticket/${purchase.bookingId}`);
    await strangerPage.getByText(`Ticket not found for bookingId: ${purchase.bookingId}`).waitFor();
    await page.goto('/check-in');
    await page.waitForURL('**/gate');
    await page.getByText("You are not on any event's gate team.", { exact: false }).waitFor();

    await gate.close();
    await buyer.close();
  });

  it('shows the empty state to a new user and sends signed-out visitors to sign in', async () => {
    const baseURL = e2eServer().baseURL;
    const { context } = await newContext(browser, baseURL, PHONE);
    const page = await context.newPage();
    await page.goto('/my-bookings');
    await page.waitForURL(/\/login\?redirect=/);
    await page.goto('/ticket/bk_whatever');
    await page.waitForURL(/\/login\?redirect=/);
    await page.goto('/ticket');
    await page.getByText('No bookingId provided in URL.').waitFor();

    await signUp(context, 'empty');
    await page.goto('/my-bookings');
    await page.getByRole('heading', { name: 'No Bookings Yet!' }).waitFor();
    await page
      .getByText(
        "You haven't booked any events yet. Your bookings will appear here once you book your first event.",
      )
      .waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Browse Events' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });
});

/** The verification link the sign-up mail carries (in the e2e server's outbox), used as its page would. */
async function verifyFromMail(context: BrowserContext, email: string): Promise<void> {
  const database = openDatabase(path.join(e2eServer().dataDir, 'jalsa.db'));
  try {
    const mail = database.db.select().from(outbox).where(eq(outbox.to, email)).get();
    const link = /https?:\/\/[^\s"<]+\/verify-email\?token=[A-Za-z0-9%_-]+/.exec(mail?.text ?? '')?.[0];
    expect(link, `verification link mailed to ${email}`).toBeTruthy();
    const token = new URL(link!).searchParams.get('token')!;
    await trpcCall(context, 'mutation', 'auth.verifyEmail', { token });
  } finally {
    database.close();
  }
}

/** Signs up a unique user through the real procedure; the session cookie lands in the context. */
async function signUp(context: BrowserContext, prefix: string): Promise<string> {
  counter += 1;
  const email = `${prefix}-${Date.now()}-${counter}@example.com`;
  await trpcCall(context, 'mutation', 'auth.signUp', {
    name: 'Asha Verma',
    email,
    mobile: '9876543210',
    password: 'secret-pass',
    confirmPassword: 'secret-pass',
    acceptTerms: true,
  });
  return email;
}

/**
 * One ticket bought the way the checkout page does it: Proceed (hold + order), the simulator's Pay,
 * then the payment window's success callback, all through the real server.
 */
async function buyWithSimulator(context: BrowserContext, email: string) {
  const events = (await trpcCall(context, 'query', 'events.list', {})) as { id: string }[];
  for (const { id: eventId } of events) {
    const options = (await trpcCall(context, 'query', 'tickets.options', { eventId })) as {
      event: { name: string };
      dates: {
        id: string;
        slots: {
          id: string;
          startTime: string;
          ticketTypes: {
            id: string;
            name: string;
            availableTickets: number;
            isLive: boolean;
            personAllowedPerTicket: number;
          }[];
        }[];
      }[];
    };
    for (const date of options.dates) {
      for (const slot of date.slots) {
        const type = slot.ticketTypes.find(
          (t) => t.isLive && t.availableTickets > 0 && t.personAllowedPerTicket === 1,
        );
        if (!type) continue;
        const order = (await trpcCall(context, 'mutation', 'payments.start', {
          eventId,
          selectedDate: date.id,
          selectedSlot: slot.id,
          selectedTickets: [{ ticketTypeId: type.id, quantity: 1 }],
          ticketDetails: { name: 'Asha Verma', email, phone: '9876543210', state: 'Maharashtra' },
        })) as { orderId: string };
        const paid = await context.request.post(`/api/simulator/orders/${order.orderId}/pay`);
        expect(paid.ok()).toBe(true);
        const result = (await paid.json()) as {
          razorpay_payment_id: string;
          razorpay_order_id: string;
          razorpay_signature: string;
        };
        const confirmed = (await trpcCall(context, 'mutation', 'payments.confirm', {
          orderId: result.razorpay_order_id,
          paymentId: result.razorpay_payment_id,
          signature: result.razorpay_signature,
        })) as { outcome: string; bookingId: string };
        expect(confirmed.outcome).toBe('booked');
        return {
          bookingId: confirmed.bookingId,
          eventName: options.event.name,
          ticketTypeName: type.name,
          slotStart: slot.startTime,
        };
      }
    }
  }
  throw new Error('No demo event has a ticket on sale');
}

async function trpcCall(
  context: BrowserContext,
  kind: 'query' | 'mutation',
  procedure: string,
  input: unknown,
) {
  const response =
    kind === 'query'
      ? await context.request.get(`/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`)
      : await context.request.post(`/trpc/${procedure}`, { data: input });
  const body = (await response.json()) as { result?: { data: unknown }; error?: { message: string } };
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${body.error?.message}`);
  return body.result?.data;
}
