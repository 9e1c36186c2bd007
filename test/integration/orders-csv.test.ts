import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { issueCreditNotesSteps } from '../../src-server/services/invoices/issue-credit-note.ts';
import { CSV_PAGE_SIZE, ORDERS_CSV_HEADER } from '../../src-server/services/sales/stream-orders-csv.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { CALLERS, type ConsoleWorld } from '../helpers/console-world.ts';
import { buy as buyTickets, consoleWorld, signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS } from '../helpers/inventory.ts';
import { cancelWithFullRefundOn, seedOrdersOn } from '../helpers/sales.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

/** GET /api/organiser/events/{eventId}/orders.csv: who may download it, what is in it, and how it streams. */

const csvUrl = (eventId: string, query = '') => `/api/organiser/events/${eventId}/orders.csv${query}`;

/**
 * RFC 4180 parsing, to read the file back as a spreadsheet would: with `,`, or with `;` as Excel does
 * in a locale whose decimal mark is a comma.
 */
function parseCsv(text: string, separator: ',' | ';' = ','): string[][] {
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
    else if (c === separator) {
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
  const { bookings } = tablesOf(t.deps.db);
  const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
  return booking!;
}

describe('orders CSV', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    w = await consoleWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers each kind of caller as console.orders does', async () => {
    await book(t, w, 'Asha Verma', 'asha@example.com');
    const expected = {
      'signed out': 401,
      buyer: 404,
      'organiser of another event': 404,
      'gate staff': 403,
      'box office': 403,
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
    await cancelWithFullRefundOn(t, cancelled.id);

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
    expect(header).toEqual([...ORDERS_CSV_HEADER]);
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
      'Ticket type': 'Gold Circle',
      Quantity: '2',
      'Unit price (INR)': '999.99',
      Tickets: '2',
      Persons: '2',
      'Checked in': '0',
      'Tickets (INR)': '1999.98',
      'Convenience fee (INR)': '100.00',
      'GST on fee (INR)': '18.00',
      'Total paid (INR)': '2117.98',
      'Refunded (INR)': '0.00',
      'Payment ID': expect.stringMatching(/^pay_/),
      // The organiser has no tax profile: no invoice was issued, so nothing to tie to.
      'Invoice number': '',
      'Credit note number': '',
      'Buyer GSTIN': '',
      'Buyer legal name': '',
      'GST rate (%)': '',
      'Taxable value (INR)': '',
      'CGST (INR)': '',
      'SGST (INR)': '',
      'IGST (INR)': '',
      'UTGST (INR)': '',
      // No discount code (issue 40).
      'Discount code': '',
      'Discount per ticket (INR)': '',
      'Discount (INR)': '',
      // No add-ons (ADR 0041).
      'Add-ons': '',
      'Add-ons (INR)': '',
      // Sold online, not at the box office (issue 40).
      Channel: 'online',
    });
    expect(byId[plain.id]!['Payment ID']).toBe(plain.paymentId);
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
    await cancelWithFullRefundOn(t, kept.id);
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

  it('keeps a `;`-splitting name in one cell and neutralised, read with `,` or with `;` (issue 35)', async () => {
    // The attack: Excel where the decimal mark is a comma splits on `;`, and "Asha;=cmd|…" was written
    // unquoted, so "=cmd|…" became a cell of its own.
    const attack = "Asha;=cmd|' /C calc'!A0";
    const booked = await book(t, w, attack, 'asha@example.com', 1);
    t.clock.advance(60_000);
    const minus = await book(t, w, '-2+3;@SUM(A1)', 'minus@example.com', 1);
    const res = await t.request(csvUrl(w.event.eventId, '?sort=oldest'), {
      headers: { cookie: w.people.owner.cookie },
    });
    // Response.text() drops the byte-order mark, as a spreadsheet does.
    const text = await res.text();
    expect(text.startsWith('Booking ID,')).toBe(true);
    expect(text).toContain(`,"Asha;'=cmd|' /C calc'!A0",`);
    expect(text).toContain(`,"'-2+3;'@SUM(A1)",`);
    const [, first, second] = parseCsv(text);
    expect([first![0], first![3]]).toEqual([booked.id, "Asha;'=cmd|' /C calc'!A0"]);
    expect([second![0], second![3]]).toEqual([minus.id, "'-2+3;'@SUM(A1)"]);
    const formula = /^[=+\-@\t\r]/;
    for (const separator of [',', ';'] as const) {
      // A reader that honours quotes anywhere, and one that honours none (Excel honours a quote only at
      // the start of a field, so a `;` reader of this `,` file splits inside the quoted name).
      const quoted = parseCsv(text, separator).flat();
      const naive = text.split(/\r\n|\r|\n/).flatMap((line) => line.split(separator));
      const cells = [...quoted, ...naive.map((cell) => cell.replace(/^"+/, ''))];
      expect(
        cells.filter((cell) => formula.test(cell)),
        `cells a reader splitting on ${separator} would run`,
      ).toEqual([]);
    }
  });

  it('gives the accountant one row per ticket type with the invoice, payment and GST split (issue 35)', async () => {
    const owner = w.people.owner;
    await saveTaxProfile(t, owner.userId);
    // Mumbai, so the place of supply is the organiser's own state: CGST + SGST. Prices include GST.
    const ev = await createTicketedEventOn(t.deps.db, {
      city: 'Mumbai',
      types: [
        { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
        { name: 'Lawn', pricePaise: 40_000, totalTickets: 20 },
      ],
    });
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId));
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 0, {
      selectedTickets: [
        { ticketTypeId: ev.ticketTypeIds[0]!, quantity: 2 },
        { ticketTypeId: ev.ticketTypeIds[1]!, quantity: 1 },
      ],
      ticketDetails: {
        ...DETAILS,
        buyerGstin: '27aapfu0939f1zv',
        buyerLegalName: 'Asha Verma Consulting Pvt Ltd',
        buyerAddress: '4 MG Road, Pune 411001',
      },
    });
    const paid = await payWithSimulator(t, session.orderId, true);
    const bookingId = ((await confirm(t, buyer.cookie, paid)).data as { bookingId: string }).bookingId;
    await cancelWithFullRefundOn(t, bookingId);
    await runnerFor(t.deps.db).write((tx) =>
      issueCreditNotesSteps(tx as WriteTx, bookingId, 'Cancelled by the organiser', t.clock.now()),
    );

    const res = await t.request(csvUrl(ev.eventId), { headers: { cookie: owner.cookie } });
    expect(res.status).toBe(200);
    const [header, ...rows] = parseCsv(await res.text());
    const records = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
    const same = {
      'Booking ID': bookingId,
      Status: 'cancelled',
      'Buyer name': DETAILS.name,
      'Payment ID': paid.razorpay_payment_id,
      // The organiser's admission invoice and its credit note (the platform's fee invoice is not theirs).
      'Invoice number': 'INV/26-27/000001',
      'Credit note number': 'CRN/26-27/000001',
      'Buyer GSTIN': '27AAPFU0939F1ZV',
      'Buyer legal name': 'Asha Verma Consulting Pvt Ltd',
    };
    // Worked by hand: Gold 2 × ₹1,180.00 with 18 % inside = taxable ₹2,000.00 + CGST 9 % ₹180.00 +
    // SGST 9 % ₹180.00; Lawn 1 × ₹400.00 is ₹500 or less a person, exempt. Tickets ₹2,760.00, fee 5 %
    // ₹138.00, its GST 18 % ₹24.84, paid ₹2,922.84, all refunded. The order's figures are on its
    // first row only, so each column still sums to the event's total.
    expect(records).toEqual([
      expect.objectContaining({
        ...same,
        'Ticket type': 'Gold',
        Quantity: '2',
        'Unit price (INR)': '1180.00',
        Tickets: '3',
        Persons: '3',
        'Checked in': '0',
        'Tickets (INR)': '2760.00',
        'Convenience fee (INR)': '138.00',
        'GST on fee (INR)': '24.84',
        'Total paid (INR)': '2922.84',
        'Refunded (INR)': '2922.84',
        'GST rate (%)': '18',
        'Taxable value (INR)': '2000.00',
        'CGST (INR)': '180.00',
        'SGST (INR)': '180.00',
        'IGST (INR)': '0.00',
        'UTGST (INR)': '0.00',
      }),
      expect.objectContaining({
        ...same,
        'Ticket type': 'Lawn',
        Quantity: '1',
        'Unit price (INR)': '400.00',
        Tickets: '',
        Persons: '',
        'Checked in': '',
        'Tickets (INR)': '',
        'Convenience fee (INR)': '',
        'GST on fee (INR)': '',
        'Total paid (INR)': '',
        'Refunded (INR)': '',
        'GST rate (%)': '0',
        'Taxable value (INR)': '400.00',
        'CGST (INR)': '0.00',
        'SGST (INR)': '0.00',
        'IGST (INR)': '0.00',
        'UTGST (INR)': '0.00',
      }),
    ]);
  });

  it('streams 5,000 orders page by page, never the whole table at once', async () => {
    await book(t, w, 'Asha Verma', 'asha@example.com', 1);
    await seedOrdersOn(t, w.event, 5_000, '2026-11-21T07:00:00.000Z');
    const res = await t.request(csvUrl(w.event.eventId, '?sort=oldest'), {
      headers: { cookie: w.people.owner.cookie },
    });
    // Event-loop turns, counted by an immediate that re-arms itself: what other requests' I/O waits for.
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const turnOfChunk: number[] = [];
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
    const { bookings } = tablesOf(t.deps.db);
    await t.deps.db
      .update(bookings)
      .set({ createdAt: '2026-12-01T00:00:00.000Z' })
      .where(eq(bookings.id, late.id));
    // Read the rest as a fast socket takes it: every chunk the moment it comes.
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      turnOfChunk.push(turns);
      text += decoder.decode(value, { stream: true });
      chunks++;
    }
    counting = false;
    // Issue 35: each page is read on a later turn of the event loop, so a request that arrives while
    // a 100,000-order file streams waits for one page, not for the whole file.
    for (let i = 1; i < turnOfChunk.length; i++) {
      expect(turnOfChunk[i], `page ${i + 2} on a later turn than page ${i + 1}`).toBeGreaterThan(
        turnOfChunk[i - 1]!,
      );
    }
    const rows = parseCsv(text.slice(1));
    expect(rows).toHaveLength(1 + 5_002);
    expect(rows.at(-1)![0]).toBe(late.id);
    // One chunk per page: the header, ⌈5002 / 500⌉ pages.
    expect(chunks).toBe(1 + Math.ceil(5_002 / CSV_PAGE_SIZE));
  });
});
