import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { CSV_PAGE_SIZE } from '../../src-server/services/sales/stream-orders-csv.ts';
import { CALLERS, type ConsoleWorld, createConsoleWorld } from '../helpers/console-world.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { cancelWithFullRefund, seedOrders } from '../helpers/sales.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** GET /api/organiser/events/{eventId}/orders.csv: who may download it, what is in it, and how it streams. */

const csvUrl = (eventId: string, query = '') => `/api/organiser/events/${eventId}/orders.csv${query}`;

/** RFC 4180 parsing, to read the file back as a spreadsheet would. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  expect(cell, 'the file ends with CRLF').toBe('');
  return rows;
}

async function book(t: TestApp, w: ConsoleWorld, name: string, email: string, quantity = 2) {
  const { bookingId } = await buyTickets(t, w.event, quantity, {
    ticketDetails: { name, email, phone: '9876543210', state: 'Maharashtra' },
    waitForWebhooks: true,
  });
  return t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
}

describe('orders CSV', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(() => {
    t = createTestApp();
    w = createConsoleWorld(t);
  });
  afterEach(() => t.close());

  it('answers each kind of caller as console.orders does', async () => {
    await book(t, w, 'Asha Verma', 'asha@example.com');
    const expected = {
      'signed out': 401,
      buyer: 404,
      'organiser of another event': 404,
      'gate staff': 403,
      'co-organiser': 200,
      owner: 200,
      admin: 200,
    } as const;
    for (const caller of CALLERS) {
      const cookie = w.cookieOf(caller);
      const res = await t.request(csvUrl(w.event.eventId), { headers: cookie ? { cookie } : {} });
      const body = await res.text();
      expect(res.status, caller).toBe(expected[caller]);
      if (res.status === 200) expect(body).toContain('asha@example.com');
      else expect(body, caller).not.toContain('asha');
      if (res.status === 404) {
        // The same answer as for an event that does not exist.
        const unknown = await t.request(csvUrl('evt-doesnotexist'), { headers: { cookie: cookie! } });
        expect({ status: unknown.status, body: await unknown.text() }).toEqual({ status: 404, body });
      }
    }
  });

  it('is a spreadsheet-safe RFC 4180 file: BOM, header, quoting, neutralised formulas, rupees, ISO dates', async () => {
    const plain = await book(t, w, 'Asha Verma', 'asha@example.com', 2);
    t.clock.advance(60_000);
    const tricky = await book(t, w, '=HYPERLINK("http://evil.example","Verma, Asha")', 'eve@example.com', 1);
    t.clock.advance(60_000);
    const cancelled = await book(t, w, '@SUM(1+1)', 'cancel@example.com', 1);
    cancelWithFullRefund(t, cancelled.id);

    const res = await t.request(csvUrl(w.event.eventId, '?sort=oldest'), {
      headers: { cookie: w.people.owner.cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="jalsa-orders-sunburn-arena-evt-[a-z0-9-]+-2026-11-21\.csv"$/,
    );
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\uFEFFBooking ID,Booked at,Status,Buyer name,')).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toHaveLength(19);
    const byId = Object.fromEntries(
      rows.map((r) => [r[0], Object.fromEntries(header!.map((h, i) => [h, r[i]]))]),
    );
    expect(rows.map((r) => r[0])).toEqual([plain.id, tricky.id, cancelled.id]);

    // 2 × Gold Circle ₹999.99: subtotal 1999.98, fee 100.00 (5 %), GST 18.00, total 2117.98.
    expect(byId[plain.id]).toEqual({
      'Booking ID': plain.id,
      'Booked at': '2026-11-21T12:00:00+05:30',
      Status: 'confirmed',
      'Buyer name': 'Asha Verma',
      'E-mail': 'asha@example.com',
      Mobile: '9876543210',
      State: 'Maharashtra',
      City: '',
      'Slot start': '2026-12-05T19:00:00+05:30',
      'Slot end': '2026-12-05T23:00:00+05:30',
      'Ticket types': 'Gold Circle x 2',
      Tickets: '2',
      Persons: '2',
      'Checked in': '0',
      'Tickets (INR)': '1999.98',
      'Convenience fee (INR)': '100.00',
      'GST on fee (INR)': '18.00',
      'Total paid (INR)': '2117.98',
      'Refunded (INR)': '0.00',
    });
    // The formula is text (leading apostrophe); its quotes and comma survive quoting.
    expect(byId[tricky.id]!['Buyer name']).toBe(`'=HYPERLINK("http://evil.example","Verma, Asha")`);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""Verma, Asha"")"`);
    expect(byId[tricky.id]!['Booked at']).toBe('2026-11-21T12:01:00+05:30');
    expect(byId[cancelled.id]).toMatchObject({
      'Buyer name': "'@SUM(1+1)",
      Status: 'cancelled',
      'Total paid (INR)': '1058.99',
      'Refunded (INR)': '1058.99',
    });
  });

  it('takes the table’s filters, validated', async () => {
    await book(t, w, 'Asha Verma', 'asha@example.com');
    const kept = await book(t, w, 'Bina Rao', 'bina@example.com');
    cancelWithFullRefund(t, kept.id);
    const get = (query: string) =>
      t.request(csvUrl(w.event.eventId, query), { headers: { cookie: w.people.owner.cookie } });
    const ids = async (query: string) =>
      parseCsv((await (await get(query)).text()).slice(1))
        .slice(1)
        .map((r) => r[0]);
    expect(await ids('?status=cancelled')).toEqual([kept.id]);
    expect(await ids('?q=BINA')).toEqual([kept.id]);
    expect(await ids(`?slotId=${w.otherEvent.slotId}`)).toEqual([]);
    expect((await get('?status=everything')).status).toBe(400);
    expect((await get(`?q=${'x'.repeat(101)}`)).status).toBe(400);
  });

  it('streams 5,000 orders page by page, never the whole table at once', async () => {
    await book(t, w, 'Asha Verma', 'asha@example.com', 1);
    seedOrders(t, w.event, 5_000, '2026-11-21T07:00:00.000Z');
    const res = await t.request(csvUrl(w.event.eventId, '?sort=oldest'), {
      headers: { cookie: w.people.owner.cookie },
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let chunks = 0;
    // Read the header and the first page only.
    while (chunks < 2) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      text += decoder.decode(value, { stream: true });
      chunks++;
    }
    expect(text.split('\r\n').length - 2, 'rows after the first page').toBe(CSV_PAGE_SIZE);
    // An order made while the download runs, after every other: the later pages are read only now, so
    // it is in the file. A file built from one read of the table would not have it.
    const late = await book(t, w, 'Late Buyer', 'late@example.com', 1);
    t.deps.db
      .update(bookings)
      .set({ createdAt: '2026-12-01T00:00:00.000Z' })
      .where(eq(bookings.id, late.id))
      .run();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      chunks++;
    }
    const rows = parseCsv(text.slice(1));
    expect(rows).toHaveLength(1 + 5_002);
    expect(rows.at(-1)![0]).toBe(late.id);
    // One chunk per page: the header, ⌈5002 / 500⌉ pages.
    expect(chunks).toBe(1 + Math.ceil(5_002 / CSV_PAGE_SIZE));
  });
});
