/**
 * Issue 36 item 12: a buyer cancels part of an order (one ticket of two) where the event's refund policy
 * lets them cancel, for the policy's refund of those tickets and a credit note for it (hand-worked
 * below); and part refunds go through the refund job like whole ones (ADR 0043). Runs on both engines
 * (vitest.config.ts ON_BOTH_ENGINES).
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RefundRule } from '../../shared/refund-policy.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { CANCEL_REFUSALS } from '../../src-server/services/bookings/buyer-cancellation.ts';
import { BUYER_PART_REASON } from '../../src-server/services/partial-refunds/cancel-some-tickets.ts';
import { runDueRefunds } from '../../src-server/services/refunds/run-due-refunds.ts';
import {
  account,
  buy as buyTickets,
  mailOn,
  type Person,
  refundOn,
  signedInUser,
} from '../helpers/engine-fixtures.ts';
import {
  countOfOn,
  createTicketedEventOn,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { watchRefunds } from '../helpers/organiser-bookings.ts';
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
  // As in partial-refunds.test.ts: 2 × ₹1,180 (GST included, MH → MH), 10 % fee + 18 % IGST on it.
  // Admission invoice 236,000 = 200,000 + CGST 18,000 + SGST 18,000; fee invoice 23,600 + IGST 4,248 =
  // 27,848; paid 263,848.
  ev = await createTicketedEventOn(t.deps.db, {
    types: [{ name: 'Floor', pricePaise: 118_000, totalTickets: 20 }],
    platformFeeRate: 10,
  });
  const { events } = tables();
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
});
afterEach(async () => {
  await expectInventoryInvariantOn(t.deps.db);
  await t.close();
});

/** The engine's tables, for the rows this file reads and writes itself. */
const tables = () => tablesOf(t.deps.db);
async function setPolicy(rule: RefundRule, percent: number | null = null) {
  const { events } = tables();
  await t.deps.db
    .update(events)
    .set({ refundRule: rule, refundPercent: percent, refundCutoffHours: 24 })
    .where(eq(events.id, ev.eventId));
}
const countOf = (ticketTypeId: string) => countOfOn(t.deps.db, ticketTypeId);
/** The one part refund so far. */
const onlyPart = async () => {
  const { refundParts } = tables();
  const [part] = await t.deps.db.select().from(refundParts);
  return part;
};
/** How much of the simulator's payment has been refunded. */
const refundedOf = async (paymentId: string) => {
  const { simulatorPayments } = tables();
  const [payment] = await t.deps.db
    .select()
    .from(simulatorPayments)
    .where(eq(simulatorPayments.id, paymentId));
  return payment!.amountRefundedPaise;
};
const cancelSome = (bookingId: string, quantity: number, cookie: string) =>
  callProcedure(
    t,
    'mutation',
    'bookings.cancelSomeTickets',
    { bookingId, tickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity }] },
    { cookie },
  );
const notes = () => t.deps.db.select().from(tables().partialCreditNotes);
const bookingRow = async (id: string) => {
  const { bookings } = tables();
  const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, id));
  return row!;
};

describe('a buyer cancels one ticket of two', () => {
  it("'minus_fee': the ticket's price back, the fee kept; a credit note for it; the seat back on sale", async () => {
    await setPolicy('minus_fee');
    const typeId = ev.ticketTypeIds[0]!;
    const { bookingId, buyer, paymentId } = await buyTickets(t, ev, 2);
    const before = await countOf(typeId);

    // One ticket of two is half the ticket money: 236,000 × 118,000 / 236,000 = 118,000; no fee share.
    const res = await cancelSome(bookingId, 1, buyer.cookie);
    expect(res.data).toEqual({ refundAmountPaise: 118_000 });
    // Credit note on the admission invoice: CGST = SGST = round(18,000 × 118,000 / 236,000) = 9,000;
    // taxable = 118,000 − 18,000 = 100,000.
    expect(await notes()).toMatchObject([
      {
        taxableValuePaise: 100_000,
        cgstPaise: 9_000,
        sgstPaise: 9_000,
        igstPaise: 0,
        totalPaise: 118_000,
        reason: BUYER_PART_REASON,
      },
    ]);
    expect((await countOf(typeId)).available).toBe(before.available + 1);
    expect(await bookingRow(bookingId)).toMatchObject({
      status: 'confirmed',
      ticketCount: 1,
      totalUserAllowed: 1,
    });
    // The buyer finds it with the booking's invoices and downloads it: the figures and the reason printed.
    const listed = await callProcedure(
      t,
      'query',
      'invoices.forBooking',
      { bookingId },
      { cookie: buyer.cookie },
    );
    const admission = (
      listed.data as { kind: string; partCreditNotes: { id: string; number: string }[] }[]
    ).find((i) => i.kind === 'admission')!;
    const [note] = await notes();
    expect(admission.partCreditNotes).toEqual([
      { id: note!.id, number: 'CRN/26-27/000001', totalPaise: 118_000 },
    ]);
    const pdf = await t.request(`/api/invoices/credit-notes/${note!.id}.pdf`, {
      headers: { cookie: buyer.cookie },
    });
    expect(pdf.status).toBe(200);
    const text = await pdfPageText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('CRN/26-27/000001');
    expect(text).toContain('Taxable value: Rs. 1,000.00');
    expect(text).toContain('CGST: Rs. 90.00');
    expect(text).toContain('SGST: Rs. 90.00');
    expect(text).toContain('Reason: Tickets cancelled by the buyer under the event');
    expect(text).toContain('Credit note total: Rs. 1,180.00');
    const stranger = await signedInUser(t);
    const theirs = await t.request(`/api/invoices/credit-notes/${note!.id}.pdf`, {
      headers: { cookie: stranger.cookie },
    });
    expect(theirs.status).toBe(404);
    const part = (await onlyPart())!;
    expect(part).toMatchObject({ kind: 'buyer', status: 'processed', amountPaise: 118_000, feePaise: 0 });
    expect(await refundedOf(paymentId)).toBe(118_000);
    expect((await mailOn(t, `booking-part-refund:${part.id}`))!.text).toContain(
      'As you asked, we have cancelled 1 × Floor of your booking',
    );

    // The rest later: the policy's 236,000 less the 118,000 already back = 118,000, once.
    const quote = await callProcedure(
      t,
      'query',
      'bookings.cancellationQuote',
      { bookingId },
      { cookie: buyer.cookie },
    );
    expect(quote.data).toMatchObject({ cancellable: true, refundAmountPaise: 118_000 });
    const all = await callProcedure(
      t,
      'mutation',
      'bookings.cancel',
      { bookingId },
      { cookie: buyer.cookie },
    );
    expect(all.data).toEqual({ cancelled: true, refundAmountPaise: 118_000 });
    expect(await refundOn(t, paymentId)).toMatchObject({ amountPaise: 118_000, status: 'processed' });
    expect((await countOf(typeId)).available).toBe(before.available + 2);
  });

  it("'percent' 50: half of the ticket's share and half of the fee's, each credited on its own invoice", async () => {
    await setPolicy('percent', 50);
    const { bookingId, buyer } = await buyTickets(t, ev, 2);
    // Ticket share 118,000 → 59,000; fee share ⌊27,848 / 2⌋ = 13,924 → 6,962; refund 65,962.
    const res = await cancelSome(bookingId, 1, buyer.cookie);
    expect(res.data).toEqual({ refundAmountPaise: 65_962 });
    // Admission: CGST = SGST = round(18,000 × 59,000 / 236,000) = 4,500; taxable 59,000 − 9,000 = 50,000.
    // Fee: IGST = round(4,248 × 6,962 / 27,848) = 1,062 (exactly a quarter); taxable 6,962 − 1,062 = 5,900.
    expect(
      // The organiser's note first, the platform's second (a table has no order of its own).
      (await notes())
        .map(({ issuer, taxableValuePaise, cgstPaise, sgstPaise, igstPaise, totalPaise }) => ({
          platform: issuer === 'platform',
          taxableValuePaise,
          cgstPaise,
          sgstPaise,
          igstPaise,
          totalPaise,
        }))
        .sort((a, b) => Number(a.platform) - Number(b.platform)),
    ).toEqual([
      {
        platform: false,
        taxableValuePaise: 50_000,
        cgstPaise: 4_500,
        sgstPaise: 4_500,
        igstPaise: 0,
        totalPaise: 59_000,
      },
      {
        platform: true,
        taxableValuePaise: 5_900,
        cgstPaise: 0,
        sgstPaise: 0,
        igstPaise: 1_062,
        totalPaise: 6_962,
      },
    ]);
  });

  it('is refused where the policy refuses the booking, for someone else, and for every ticket', async () => {
    const { bookingId, buyer } = await buyTickets(t, ev, 2);
    const stranger = await signedInUser(t);
    const other = await cancelSome(bookingId, 1, stranger.cookie);
    expect(other.status).toBe(404);
    const all = await cancelSome(bookingId, 2, buyer.cookie);
    expect(all.status).toBe(400);
    const { ticketTypes, refundParts } = tables();
    await t.deps.db
      .update(ticketTypes)
      .set({ isRefundable: false })
      .where(eq(ticketTypes.id, ev.ticketTypeIds[0]!));
    const refused = await cancelSome(bookingId, 1, buyer.cookie);
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toBe(CANCEL_REFUSALS.notRefundable);
    expect(await t.deps.db.select().from(refundParts)).toEqual([]);
    expect((await bookingRow(bookingId)).ticketCount).toBe(2);
  });
});

describe('the refund job issues part refunds', () => {
  it('a failed gateway call is retried with the same idempotency key and refunds once', async () => {
    const { bookingId, paymentId } = await buyTickets(t, ev, 2);
    const watch = watchRefunds(t);
    watch.faults.push('lost-answer');
    const res = await callProcedure(
      t,
      'mutation',
      'eventBookings.refundPart',
      { eventId: ev.eventId, bookingId, amountPaise: 20_000, reason: 'Late start' },
      { cookie: organiser.cookie },
    );
    expect(res.status).toBe(200);
    // The gateway refunded it but the answer was lost: still pending, retried after its back-off.
    expect(await onlyPart()).toMatchObject({ status: 'pending', attempts: 1 });
    t.clock.advance(31_000);
    await runDueRefunds(t.deps);
    expect(await onlyPart()).toMatchObject({ status: 'processed', attempts: 2 });
    // Before retrying, the payment showed 20,000 refunded already: the gateway was asked once.
    expect(watch.calls).toHaveLength(1);
    expect(await refundedOf(paymentId)).toBe(20_000);
  });
});
