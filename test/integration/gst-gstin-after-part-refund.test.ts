/**
 * Issue 36 (ADR 0024, ADR 0043): a buyer adds their GSTIN after part of the booking was already refunded
 * and credited. The credit note that cancels the B2C invoice credits only what the part credit notes left
 * on it, and the B2B invoice is re-issued for what the buyer has finally paid for (the tickets still held),
 * so the old invoice less its part notes less the new note is nil, and the buyer's and the organiser's
 * records never count the refunded ticket twice. The same for the platform's fee invoice when the part
 * refund gave back a share of the fee. Figures worked by hand below. Runs on both engines.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { account, buy, type Person } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, type TicketedEvent } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

let t: TestApp;
let ev: TicketedEvent;
let organiser: Person;
beforeEach(async () => {
  t = await createTestAppOn(testEngine());
  organiser = await account(t, 'organiser');
  await saveTaxProfile(t, organiser.userId);
  // As in partial-refunds-buyer.test.ts: 2 × ₹1,180 GST included, MH organiser, Mumbai show (intra-state);
  // a 10 % fee + 18 % GST on it, invoiced by the platform (Karnataka) to a buyer in Maharashtra (IGST).
  // Admission invoice 236,000 = 200,000 + CGST 18,000 + SGST 18,000.
  // Fee invoice 23,600 + IGST 4,248 = 27,848. Paid 263,848.
  ev = await createTicketedEventOn(t.deps.db, {
    types: [{ name: 'Floor', pricePaise: 118_000, totalTickets: 20 }],
    platformFeeRate: 10,
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db
    .update(events)
    // 'full': cancelling a ticket gives back its share of the fee too, so the fee invoice is credited in part.
    .set({ ownerId: organiser.userId, refundRule: 'full', refundPercent: null, refundCutoffHours: 24 })
    .where(eq(events.id, ev.eventId));
});
afterEach(async () => {
  await t.close();
});

const GSTIN = {
  bookingId: '',
  // Karnataka's: the fee's place of supply becomes Karnataka, the platform's own state (CGST + SGST).
  buyerGstin: '29AAGCB7383J1Z4',
  buyerLegalName: 'Verma Consulting Pvt Ltd',
  buyerAddress: '4 MG Road, Bengaluru 560001',
};

const heads = (d: {
  taxableValuePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
}) => ({
  taxableValuePaise: d.taxableValuePaise,
  cgstPaise: d.cgstPaise,
  sgstPaise: d.sgstPaise,
  igstPaise: d.igstPaise,
  totalPaise: d.totalPaise,
});

async function documentsOf(bookingId: string) {
  const { invoices, creditNotes, partialCreditNotes } = tablesOf(t.deps.db);
  const all = await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId));
  const whole = await t.deps.db.select().from(creditNotes);
  const parts = await t.deps.db.select().from(partialCreditNotes);
  return all.map((invoice) => ({
    invoice,
    whole: whole.find((n) => n.invoiceId === invoice.id),
    parts: parts.filter((n) => n.invoiceId === invoice.id),
  }));
}

describe('a GSTIN added after a part refund', () => {
  it('credits only what is left and re-issues the B2B invoices for the ticket still held', async () => {
    const { bookingId, buyer } = await buy(t, ev, 2);
    // Cancel one ticket of two under 'full': 236,000 × 1/2 = 118,000 of admission and ⌊27,848 / 2⌋ =
    // 13,924 of the fee back. Part notes: admission CGST = SGST = 9,000, taxable 100,000; fee IGST
    // round(4,248 × 13,924 / 27,848) = 2,124, taxable 11,800.
    const cancelled = await callProcedure(
      t,
      'mutation',
      'bookings.cancelSomeTickets',
      { bookingId, tickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 1 }] },
      { cookie: buyer.cookie },
    );
    expect(cancelled.data).toEqual({ refundAmountPaise: 131_924 });

    const res = await callProcedure(
      t,
      'mutation',
      'invoices.addBuyerGstin',
      { ...GSTIN, bookingId },
      { cookie: buyer.cookie },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const docs = await documentsOf(bookingId);
    const old = (kind: string) => docs.find((d) => d.invoice.kind === kind && !d.invoice.buyerGstin)!;
    const reissued = (kind: string) => docs.find((d) => d.invoice.kind === kind && d.invoice.buyerGstin)!;

    // Admission. The new credit note: 236,000 − 118,000 = 118,000 = 100,000 + 9,000 + 9,000.
    expect(heads(old('admission').whole!)).toEqual({
      taxableValuePaise: 100_000,
      cgstPaise: 9_000,
      sgstPaise: 9_000,
      igstPaise: 0,
      totalPaise: 118_000,
    });
    // The B2B invoice: the one Floor ticket held, ₹1,180 GST included at 18 % intra-state:
    // taxable round(118,000 × 100 / 118) = 100,000; tax 18,000 → CGST 9,000 + SGST 9,000.
    const admission = reissued('admission').invoice;
    expect(heads(admission)).toEqual({
      taxableValuePaise: 100_000,
      cgstPaise: 9_000,
      sgstPaise: 9_000,
      igstPaise: 0,
      totalPaise: 118_000,
    });
    expect(admission.lines).toMatchObject([
      {
        quantity: 1,
        unitPricePaise: 118_000,
        taxableValuePaise: 100_000,
        cgstPaise: 9_000,
        totalPaise: 118_000,
      },
    ]);

    // Fee. The new credit note: 27,848 − 13,924 = 13,924 = 11,800 + IGST 2,124 (as the part note was).
    expect(heads(old('platform_fee').whole!)).toEqual({
      taxableValuePaise: 11_800,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 2_124,
      totalPaise: 13_924,
    });
    // The B2B fee invoice: what is left of the fee, 11,800 + GST 2,124, now in Karnataka (the GSTIN's
    // state, the platform's own): CGST 1,062 + SGST 1,062 = 13,924.
    expect(heads(reissued('platform_fee').invoice)).toEqual({
      taxableValuePaise: 11_800,
      cgstPaise: 1_062,
      sgstPaise: 1_062,
      igstPaise: 0,
      totalPaise: 13_924,
    });
    expect(reissued('platform_fee').invoice.placeOfSupply).toBe('Karnataka');

    // Old invoice − its part notes − the new credit note = 0, head by head; and the new invoices add up to
    // what the buyer has finally paid for: 263,848 − 131,924 = 131,924.
    for (const kind of ['admission', 'platform_fee']) {
      const { invoice, whole, parts } = old(kind);
      for (const head of [
        'taxableValuePaise',
        'cgstPaise',
        'sgstPaise',
        'igstPaise',
        'totalPaise',
      ] as const) {
        const credited = parts.reduce((s, n) => s + n[head], 0) + whole![head];
        expect(invoice[head] - credited, `${kind} ${head}`).toBe(0);
      }
    }
    expect(admission.totalPaise + reissued('platform_fee').invoice.totalPaise).toBe(131_924);

    // The new invoice's PDF says the same.
    const pdf = await t.request(`/api/invoices/${admission.id}.pdf`, { headers: { cookie: buyer.cookie } });
    expect(pdf.status).toBe(200);
    const text = pdfPageText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('29AAGCB7383J1Z4');
    expect(text).toContain('Taxable value: Rs. 1,000.00');
    expect(text).toContain('CGST: Rs. 90.00');
    expect(text).toContain('SGST: Rs. 90.00');
    expect(text).toContain('Invoice total: Rs. 1,180.00');
    expect(text).not.toContain('Rs. 2,360.00');

    // Cancelling the rest later credits the B2B invoices exactly: every invoice of the booking then nets to 0.
    const rest = await callProcedure(
      t,
      'mutation',
      'bookings.cancel',
      { bookingId },
      { cookie: buyer.cookie },
    );
    expect(rest.data).toEqual({ cancelled: true, refundAmountPaise: 131_924 });
    const after = await documentsOf(bookingId);
    expect(after).toHaveLength(4);
    for (const { invoice, whole, parts } of after) {
      const credited = parts.reduce((s, n) => s + n.totalPaise, 0) + (whole?.totalPaise ?? 0);
      expect(invoice.totalPaise - credited, invoice.number).toBe(0);
    }
  });
});

describe('a GSTIN added after an organiser’s part refunds', () => {
  const refundPart = (bookingId: string, input: object) =>
    callProcedure(
      t,
      'mutation',
      'eventBookings.refundPart',
      { eventId: ev.eventId, bookingId, ...input },
      { cookie: organiser.cookie },
    );
  const addGstin = (bookingId: string, cookie: string) =>
    callProcedure(t, 'mutation', 'invoices.addBuyerGstin', { ...GSTIN, bookingId }, { cookie });

  it('an amount that is not whole tickets: both tickets re-invoiced at what is left of them', async () => {
    const { bookingId, buyer } = await buy(t, ev, 2);
    // ₹590 back, no ticket cancelled: part note CGST = SGST = round(18,000 × 59,000 / 236,000) = 4,500,
    // taxable 50,000.
    expect((await refundPart(bookingId, { amountPaise: 59_000, reason: 'Late start' })).status).toBe(200);
    expect((await addGstin(bookingId, buyer.cookie)).status).toBe(200);

    const docs = await documentsOf(bookingId);
    const old = docs.find((d) => d.invoice.kind === 'admission' && !d.invoice.buyerGstin)!;
    const renewed = docs.find((d) => d.invoice.kind === 'admission' && d.invoice.buyerGstin)!.invoice;
    // Left: 236,000 − 59,000 = 177,000 = 150,000 + CGST 13,500 + SGST 13,500; credited, and re-invoiced.
    const left = {
      taxableValuePaise: 150_000,
      cgstPaise: 13_500,
      sgstPaise: 13_500,
      igstPaise: 0,
      totalPaise: 177_000,
    };
    expect(heads(old.whole!)).toEqual(left);
    expect(heads(renewed)).toEqual(left);
    expect(renewed.lines).toMatchObject([{ quantity: 2, ...left }]);
    expect(renewed.notes.at(-1)).toBe(
      `Replaces invoice ${old.invoice.number} for the supply left after the part refunds credited by credit note ${old.parts[0]!.number}.`,
    );
    // The fee was not refunded: its invoice is re-issued whole, now in Karnataka: 23,600 + 2,124 + 2,124.
    const fee = docs.find((d) => d.invoice.kind === 'platform_fee' && d.invoice.buyerGstin)!.invoice;
    expect(heads(fee)).toEqual({
      taxableValuePaise: 23_600,
      cgstPaise: 2_124,
      sgstPaise: 2_124,
      igstPaise: 0,
      totalPaise: 27_848,
    });
  });

  it('everything but the fee given back: only the fee invoice is re-issued; the admission invoice has nothing left', async () => {
    const { bookingId, buyer } = await buy(t, ev, 2);
    expect((await refundPart(bookingId, { allButFee: true, reason: 'Show called off' })).status).toBe(200);
    expect((await addGstin(bookingId, buyer.cookie)).status).toBe(200);
    const docs = await documentsOf(bookingId);
    const admission = docs.filter((d) => d.invoice.kind === 'admission');
    // Credited whole by its part note (236,000): no second note, no B2B admission invoice at ₹0 or more.
    expect(admission).toHaveLength(1);
    expect(admission[0]!.whole).toBeUndefined();
    expect(admission[0]!.parts.map((n) => n.totalPaise)).toEqual([236_000]);
    expect(docs.filter((d) => d.invoice.kind === 'platform_fee').map((d) => d.invoice.totalPaise)).toEqual([
      27_848, 27_848,
    ]);
  });
});
