/**
 * Issue 36, items 5–7 and 12: the right document for every sale and the particulars Rules 46, 49 and 53
 * ask for, read from the PDFs as text. Every figure below is worked by hand in its comment.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { EXEMPT_WORDING } from '../../shared/gst.ts';
import { RECIPIENT_ADDRESS_MESSAGES } from '../../shared/recipient-address.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { startInput } from '../helpers/checkout-flow.ts';
import { account, buy as buyTickets, signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS, type TicketTypeSpec } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const REGISTERED = {
  legalName: 'Tala Collective LLP',
  address: '12 Hill Road, Bandra, Mumbai 400050',
  state: 'Maharashtra',
  gstin: '27AAPFU0939F1ZV',
};
const UNREGISTERED = { ...REGISTERED, legalName: 'Riya Sen', gstin: '' };
/** A Karnataka business buying from a Maharashtra organiser. */
const KA_BUYER = {
  buyerGstin: '29AAGCB7383J1Z4',
  buyerLegalName: 'Kaveri Events Pvt Ltd',
  buyerAddress: '80 Feet Road, Indiranagar, Bengaluru 560038',
};
/** No platform registration: only the organiser's documents are issued. */
const NO_PLATFORM_GST = { SEED_DEMO_DATA: 'false' } as const;

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function organiserWithEvent(profile: typeof REGISTERED, types: TicketTypeSpec[]) {
  const organiser = await account(t, 'organiser');
  await saveTaxProfile(t, organiser.userId, profile);
  // A concert in Mumbai (createTicketedEvent's category and city).
  const ev = await createTicketedEventOn(t.deps.db, { types });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  return { organiser, ev };
}

async function admissionInvoiceOf(bookingId: string) {
  const { invoices } = tablesOf(t.deps.db);
  return (await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId)))[0]!;
}

async function pdfText(path: string, cookie: string): Promise<string> {
  const res = await t.request(path, { headers: { cookie } });
  expect(res.status).toBe(200);
  return pdfPageText(Buffer.from(await res.arrayBuffer()));
}

/** The PDF's recipient block: from its heading to the place of supply. */
function recipientBlock(text: string): string {
  return text.slice(text.indexOf('Recipient'), text.indexOf('Place of supply'));
}

describe('the document for every sale (Rules 46, 49)', () => {
  it('a wholly exempt ₹499 concert ticket gets a bill of supply in its own series, not a tax invoice', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await organiserWithEvent(REGISTERED, [
      { name: 'Lawn', pricePaise: 49_900, totalTickets: 20 },
      { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
    ]);
    const { buyer, bookingId } = await buyTickets(t, ev, 1);
    const bill = await admissionInvoiceOf(bookingId);
    // ₹499 ≤ ₹500 per person: exempt (entry 81); taxable value 499.00, no tax, total ₹499.00.
    expect(bill).toMatchObject({
      documentType: 'bill_of_supply',
      number: 'BOS/26-27/000001',
      taxableValuePaise: 49_900,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 49_900,
    });
    const text = await pdfText(`/api/invoices/${bill.id}.pdf`, buyer.cookie);
    expect(text).toContain('Bill of supply');
    expect(text).not.toContain('Tax invoice');
    expect(text).toContain('Bill number: BOS/26-27/000001');
    expect(text).toContain('Exempt');
    expect(text).toContain(EXEMPT_WORDING.replace('₹', 'Rs. ').slice(0, 60));
    expect(text).not.toContain('Prices include GST');
    expect(text).toContain('Bill total: Rs. 499.00');
    expect(text).toContain('Amount in words: Rupees Four Hundred Ninety Nine Only');
    expect(text).toContain('Whether tax is payable on reverse charge: No');
    expect(text).toContain('For Tala Collective LLP');
    expect(text).toContain('Authorised signatory');

    // The tax invoices' series is its own: the organiser's first taxable sale is INV/…/000001, not 000002.
    const gold = await buyTickets(t, { ...ev, ticketTypeIds: [ev.ticketTypeIds[1]!] }, 1);
    expect(await admissionInvoiceOf(gold.bookingId)).toMatchObject({
      documentType: 'tax_invoice',
      number: 'INV/26-27/000001',
    });
  });

  it('an unregistered organiser’s document says no GST is charged, never that the supply is exempt', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await organiserWithEvent(UNREGISTERED, [
      { name: 'Gold', pricePaise: 100_000, totalTickets: 20 },
    ]);
    const { buyer, bookingId } = await buyTickets(t, ev, 2);
    const bill = await admissionInvoiceOf(bookingId);
    // 2 × ₹1,000 = ₹2,000.00, no GST at all.
    expect(bill).toMatchObject({
      documentType: 'bill_of_supply',
      number: 'BOS/26-27/000001',
      supplierGstin: null,
      taxableValuePaise: 200_000,
      totalPaise: 200_000,
    });
    const text = await pdfText(`/api/invoices/${bill.id}.pdf`, buyer.cookie);
    expect(text).toContain('Bill of supply');
    expect(text).toContain('GSTIN: Not registered');
    expect(text).toContain('GST not charged (supplier not registered under GST)');
    expect(text).toContain('GST not charged: supplier not registered under GST.');
    expect(text).not.toMatch(/exempt/i);
    expect(text).not.toContain('Prices include GST');
    expect(text).toContain('Amount in words: Rupees Two Thousand Only');
    expect(text).toContain('For Riya Sen');
  });
});

describe('the recipient’s address (Rule 46(e))', () => {
  it('B2B: Proceed without an address is refused; the invoice prints the address and the GSTIN’s state', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await organiserWithEvent(REGISTERED, [
      { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
    ]);
    // The attack: a GSTIN without an address (the invoice would lack a particular Rule 46 requires).
    const buyerless = await signedInUser(t);
    const refused = await callProcedure(
      t,
      'mutation',
      'payments.start',
      {
        ...startInput(ev, 1),
        ticketDetails: {
          ...DETAILS,
          buyerGstin: KA_BUYER.buyerGstin,
          buyerLegalName: KA_BUYER.buyerLegalName,
        },
      },
      { cookie: buyerless.cookie },
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(RECIPIENT_ADDRESS_MESSAGES.required);
    // A business's address without its PIN code: the IRP would refuse the e-invoice, and an issued
    // invoice cannot be corrected, so Proceed asks for it.
    const noPin = await callProcedure(
      t,
      'mutation',
      'payments.start',
      {
        ...startInput(ev, 1),
        ticketDetails: {
          ...DETAILS,
          buyerGstin: KA_BUYER.buyerGstin,
          buyerLegalName: KA_BUYER.buyerLegalName,
          buyerAddress: '80 Feet Road, Indiranagar, Bengaluru',
        },
      },
      { cookie: buyerless.cookie },
    );
    expect(noPin.status).toBe(400);
    expect(noPin.body.error?.data.fieldErrors?.buyerAddress).toBe(RECIPIENT_ADDRESS_MESSAGES.businessPin);

    // Typed state Maharashtra, GSTIN of Karnataka (29): the invoice's recipient is in Karnataka.
    const { buyer, bookingId } = await buyTickets(t, ev, 1, {
      ticketDetails: { ...DETAILS, state: 'Maharashtra', ...KA_BUYER },
    });
    const invoice = await admissionInvoiceOf(bookingId);
    // ₹1,180 tax included at 18 %: taxable 1180 × 100/118 = 1000.00, tax 180.00; the event is in
    // Maharashtra like the organiser, so CGST 90.00 + SGST 90.00.
    expect(invoice).toMatchObject({
      documentType: 'tax_invoice',
      buyerGstin: '29AAGCB7383J1Z4',
      buyerState: 'Karnataka',
      buyerAddress: KA_BUYER.buyerAddress,
      taxableValuePaise: 100_000,
      cgstPaise: 9_000,
      sgstPaise: 9_000,
      totalPaise: 118_000,
    });
    const text = await pdfText(`/api/invoices/${invoice.id}.pdf`, buyer.cookie);
    const recipient = recipientBlock(text);
    expect(recipient).toContain('Kaveri Events Pvt Ltd');
    expect(recipient).toContain(KA_BUYER.buyerAddress);
    expect(recipient).toContain('GSTIN: 29AAGCB7383J1Z4');
    expect(recipient).toContain('State: Karnataka (29)');
    expect(recipient).not.toContain('Maharashtra');
    expect(text).toContain('Tax invoice');
    expect(text).toContain('Amount in words: Rupees One Thousand One Hundred Eighty Only');
    expect(text).toContain('Whether tax is payable on reverse charge: No');
  });

  it('B2C: asked for at a taxable value of ₹50,000 and over (Rule 46(f)), not below (and not kept when not asked for)', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await organiserWithEvent(REGISTERED, [
      { name: 'Box', pricePaise: 2_500_000, totalTickets: 20 },
      { name: 'Big box', pricePaise: 2_950_000, totalTickets: 20 },
    ]);
    const pune = { ...DETAILS, buyerAddress: 'Flat 4, Koregaon Park, Pune 411001' };
    // 2 × ₹29,500 = ₹59,000.00 tax included at 18 %: taxable 59,000 × 100/118 = 50,000.00 exactly, tax
    // 9,000.00 (4,500.00 + 4,500.00): "fifty thousand rupees or more" needs the address.
    const bigBox = { ...ev, ticketTypeIds: [ev.ticketTypeIds[1]!] };
    const refused = await callProcedure(t, 'mutation', 'payments.start', startInput(bigBox, 2), {
      cookie: (await signedInUser(t)).cookie,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(RECIPIENT_ADDRESS_MESSAGES.required);
    const big = await buyTickets(t, bigBox, 2, { ticketDetails: pune });
    expect(await admissionInvoiceOf(big.bookingId)).toMatchObject({
      buyerAddress: 'Flat 4, Koregaon Park, Pune 411001',
      buyerGstin: null,
      taxableValuePaise: 5_000_000,
      cgstPaise: 450_000,
      sgstPaise: 450_000,
      totalPaise: 5_900_000,
    });

    // 2 × ₹25,000 = ₹50,000.00 tax included: taxable 50,000 / 1.18 = 42,372.8814 → 42,372.88, tax
    // 7,627.12 (3,813.56 each): the taxable value is below the line, though the buyer pays ₹50,000. No
    // address needed, and one sent anyway is not kept.
    const small = await buyTickets(t, ev, 2, { ticketDetails: pune });
    expect(await admissionInvoiceOf(small.bookingId)).toMatchObject({
      buyerAddress: null,
      taxableValuePaise: 4_237_288,
      cgstPaise: 381_356,
      sgstPaise: 381_356,
      totalPaise: 5_000_000,
    });
  });

  it('B2C with prices "+ GST": ₹50,000 + GST is a taxable value of ₹50,000, so the address is asked for', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await organiserWithEvent({ ...REGISTERED, taxInclusive: false } as typeof REGISTERED, [
      { name: 'Box', pricePaise: 5_000_000, totalTickets: 20 },
    ]);
    const refused = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), {
      cookie: (await signedInUser(t)).cookie,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(RECIPIENT_ADDRESS_MESSAGES.required);
    const bought = await buyTickets(t, ev, 1, {
      ticketDetails: { ...DETAILS, buyerAddress: 'Flat 4, Koregaon Park, Pune 411001' },
    });
    // 1 × ₹50,000.00 + 18 %: CGST 4,500.00 + SGST 4,500.00; the buyer pays ₹59,000.00.
    expect(await admissionInvoiceOf(bought.bookingId)).toMatchObject({
      buyerAddress: 'Flat 4, Koregaon Park, Pune 411001',
      taxableValuePaise: 5_000_000,
      cgstPaise: 450_000,
      sgstPaise: 450_000,
      totalPaise: 5_900_000,
    });
  });
});

describe('credit notes (Rule 53)', () => {
  it('print the reason in words, the reverse-charge line, the signatory and the amount in words', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent(REGISTERED, [
      { name: 'Gold', pricePaise: 118_025, totalTickets: 20 },
    ]);
    const { buyer, bookingId } = await buyTickets(t, ev, 1);
    const cancelled = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId },
      { cookie: organiser.cookie },
    );
    expect(cancelled.status).toBe(200);
    // Once cancelled, My Bookings still lists the invoice with its credit note for the payer.
    const listed = await callProcedure(
      t,
      'query',
      'invoices.forBooking',
      { bookingId },
      { cookie: buyer.cookie },
    );
    const [summary] = listed.data as { creditNoteId: string | null }[];
    expect(summary!.creditNoteId).toEqual(expect.any(String));

    const text = await pdfText(`/api/invoices/credit-notes/${summary!.creditNoteId}.pdf`, buyer.cookie);
    expect(text).toContain('Reason: Booking cancelled by the organiser; refunded in full');
    expect(text).not.toMatch(/Reason: organiser\b/);
    // ₹1,180.25 paid, all credited: taxable 118025 × 100/118 = 100021.19… → 1000.21, tax 180.04
    // (CGST 90.02 + SGST 90.02); the credit note's total is the invoice's, ₹1,180.25.
    expect(text).toContain('CGST: Rs. 90.02');
    expect(text).toContain('Credit note total: Rs. 1,180.25');
    expect(text).toContain(
      'Amount in words: Rupees One Thousand One Hundred Eighty and Twenty Five Paise Only',
    );
    expect(text).toContain('Whether tax is payable on reverse charge: No');
    expect(text).toContain('For Tala Collective LLP');
    expect(text).toContain('Authorised signatory');
    expect(text).toContain('computer-generated');
  });
});
