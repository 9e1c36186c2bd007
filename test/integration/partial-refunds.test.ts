/**
 * Issue 40 "Partial refunds by the organiser" and issue 36 item 12 (a buyer cancels part of an order):
 * amounts checked against what is still refundable, credit notes for exactly the amount with the heads in
 * proportion (worked by hand below), seats back only for tickets nobody walked in with, the refund job,
 * the order history and the buyer's mail (ADR 0043). Runs on both engines (vitest.config.ts ON_BOTH_ENGINES).
 */
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PART_REFUND_MESSAGES } from '../../shared/partial-refund-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { EVENT_BOOKING_NOT_FOUND } from '../../src-server/services/bookings/cancel-booking.ts';
import { recordScan } from '../../src-server/services/gate/record-scan.ts';
import { gstr1Tables } from '../../src-server/services/invoices/export-gstr1.ts';
import { streamInvoicesCsv } from '../../src-server/services/invoices/stream-invoices-csv.ts';
import { PART_REFUND_REFUSALS } from '../../src-server/services/partial-refunds/refund-part-in.ts';
import { signAttendeeTicketToken, signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { account, buy, mailOn, ownedEvent, type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import {
  countOfOn,
  createTicketedEventOn,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { buyAs } from '../helpers/organiser-bookings.ts';
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
  // ₹1,180 tickets, GST included at 18 %, with a 10 % convenience fee: a Mumbai (Maharashtra) show.
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

/** The engine's tables, for the rows this file reads itself. */
const tables = () => tablesOf(t.deps.db);
const countOf = (ticketTypeId: string) => countOfOn(t.deps.db, ticketTypeId);
const mailOf = (key: string) => mailOn(t, key);
const refundPart = (input: object, cookie = organiser.cookie) =>
  callProcedure(t, 'mutation', 'eventBookings.refundPart', { eventId: ev.eventId, ...input }, { cookie });
const bookingRow = async (id: string) => {
  const { bookings } = tables();
  const [found] = await t.deps.db.select().from(bookings).where(eq(bookings.id, id));
  return found!;
};
/** Every part refund, oldest first. */
const parts = () => {
  const { refundParts } = tables();
  return t.deps.db.select().from(refundParts).orderBy(asc(refundParts.createdAt), asc(refundParts.id));
};
/** A shared capacity's seats left (the quota row's `available`). */
const quotaAvailable = async (quotaId: string) => {
  const { quotas } = tables();
  const [q] = await t.deps.db
    .select({ available: quotas.available })
    .from(quotas)
    .where(eq(quotas.id, quotaId));
  return q!.available;
};

/** Lets `persons` people in with the booking at the gate. */
async function admit(bookingId: string, persons: number) {
  const res = await recordScan(
    t.deps.db,
    t.deps.appSecret,
    { eventId: ev.eventId, staffUserId: organiser.userId },
    {
      slotId: ev.slotId,
      gate: 'North gate',
      deviceId: 'test-device',
      scanId: `scan-${bookingId}-${persons}`,
      token: signTicketToken(t.deps.appSecret, bookingId),
      persons,
    },
    t.clock.now(),
  );
  expect(res.outcome).toBe('admit');
}
const notesOf = (refundPartId: string) => {
  const { partialCreditNotes } = tables();
  return t.deps.db
    .select()
    .from(partialCreditNotes)
    .where(eq(partialCreditNotes.refundPartId, refundPartId))
    .orderBy(asc(partialCreditNotes.number));
};
const refundedAtGateway = async (paymentId: string) => {
  const { simulatorPayments } = tables();
  const [payment] = await t.deps.db
    .select()
    .from(simulatorPayments)
    .where(eq(simulatorPayments.id, paymentId));
  return payment!.amountRefundedPaise;
};

// The booking every case starts from: 2 × ₹1,180 tickets, GST included, intra-state (MH organiser, MH buyer).
//   admission invoice: total 236,000 = taxable 200,000 + CGST 18,000 + SGST 18,000 (9 % + 9 % of 200,000)
//   convenience fee: 10 % of 236,000 = 23,600, the platform (Karnataka) to a Maharashtra buyer: IGST 18 % =
//   4,248; fee invoice total 27,848. Paid: 236,000 + 27,848 = 263,848.
describe('the organiser refunds part of a booking', () => {
  it('two part refunds, a third beyond what is left refused; credit notes for exactly each amount', async () => {
    const { bookingId, paymentId } = await buy(t, ev, 2);
    expect((await bookingRow(bookingId)).totalAmountPaise).toBe(263_848);

    // 1) ₹500 back for the sound failing. Credited on the admission invoice, heads in its proportion:
    //    CGST = round(18,000 × 50,000 / 236,000) = round(3,813.56) = 3,814; SGST = CGST = 3,814;
    //    taxable = 50,000 − 3,814 − 3,814 = 42,372.
    const first = await refundPart({
      bookingId,
      amountPaise: 50_000,
      reason: 'Sound failed in the first half',
    });
    expect(first.status).toBe(200);
    const firstId = (first.data as { refundPartId: string }).refundPartId;
    expect(await notesOf(firstId)).toMatchObject([
      {
        number: 'CRN/26-27/000001',
        taxableValuePaise: 42_372,
        cgstPaise: 3_814,
        sgstPaise: 3_814,
        igstPaise: 0,
        totalPaise: 50_000,
        reason: 'Sound failed in the first half',
      },
    ]);

    // 2) "Everything but the fee": the rest of the admission invoice, 236,000 − 50,000 = 186,000. The note
    //    that uses the invoice up takes what is left of each head: taxable 200,000 − 42,372 = 157,628,
    //    CGST = SGST = 18,000 − 3,814 = 14,186; 157,628 + 2 × 14,186 = 186,000.
    const second = await refundPart({ bookingId, allButFee: true, reason: 'Show cut short by rain' });
    expect(second.data).toMatchObject({ amountPaise: 186_000 });
    const secondId = (second.data as { refundPartId: string }).refundPartId;
    expect(await notesOf(secondId)).toMatchObject([
      {
        number: 'CRN/26-27/000002',
        taxableValuePaise: 157_628,
        cgstPaise: 14_186,
        sgstPaise: 14_186,
        igstPaise: 0,
        totalPaise: 186_000,
      },
    ]);

    // 3) Left: the fee and its IGST, 27,848. One paisa more is refused, and so is "everything but the fee".
    const over = await refundPart({ bookingId, amountPaise: 27_849, reason: 'Goodwill' });
    expect(over.status).toBe(400);
    expect(over.body.error?.message).toBe(PART_REFUND_REFUSALS.overLeft('₹278.48'));
    const onlyFee = await refundPart({ bookingId, allButFee: true, reason: 'Goodwill' });
    expect(onlyFee.status).toBe(409);
    expect(onlyFee.body.error?.message).toBe(PART_REFUND_REFUSALS.onlyFeeLeft);

    // Both went through the refund job to the gateway, once each: 50,000 + 186,000 = 236,000 refunded.
    expect((await parts()).map((p) => p.status)).toEqual(['processed', 'processed']);
    expect(await refundedAtGateway(paymentId)).toBe(236_000);

    // The order history has each, with who asked and why; the buyer's mail says what and why.
    const { bookingHistory } = tables();
    const history = await t.deps.db
      .select()
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingId, bookingId))
      .orderBy(asc(bookingHistory.seq));
    expect(history.filter((h) => h.kind === 'partly_refunded')).toMatchObject([
      {
        actor: 'organiser',
        actorUserId: organiser.userId,
        details: { amountPaise: 50_000, reason: 'Sound failed in the first half' },
      },
      { actor: 'organiser', details: { amountPaise: 186_000, reason: 'Show cut short by rain' } },
    ]);
    expect(history.filter((h) => h.kind === 'refund_issued')).toHaveLength(2);
    const mail = (await mailOf(`booking-part-refund:${firstId}`))!;
    expect(mail.to).toBe('asha@example.com');
    expect(mail.text).toContain(
      'Refund: ₹500.00. Reason given by the organiser: Sound failed in the first half',
    );
    expect(mail.text).toContain('your tickets stay valid');
  });

  it('a part of the fee credits the platform invoice; cancelling afterwards refunds and credits only the rest', async () => {
    const { bookingId, paymentId } = await buy(t, ev, 2);
    await refundPart({ bookingId, allButFee: true, reason: 'Headliner did not play' });
    // ₹100 more comes out of the fee invoice (the ticket money is used up): IGST = round(4,248 × 10,000 /
    // 27,848) = round(1,525.42) = 1,525; taxable = 10,000 − 1,525 = 8,475.
    const fee = await refundPart({ bookingId, amountPaise: 10_000, reason: 'Fee waived' });
    const feeNotes = await notesOf((fee.data as { refundPartId: string }).refundPartId);
    expect(feeNotes).toMatchObject([
      {
        issuer: 'platform',
        taxableValuePaise: 8_475,
        cgstPaise: 0,
        sgstPaise: 0,
        igstPaise: 1_525,
        totalPaise: 10_000,
      },
    ]);

    // Cancelling the booking now refunds 263,848 − 236,000 − 10,000 = 17,848, and the whole credit note on
    // the fee invoice is for the rest: taxable 23,600 − 8,475 = 15,125, IGST 4,248 − 1,525 = 2,723. The
    // admission invoice was credited in full by the parts: no second note for it.
    const cancel = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId },
      { cookie: organiser.cookie },
    );
    expect(cancel.data).toEqual({ cancelled: true });
    expect(await refundedAtGateway(paymentId)).toBe(263_848);
    const whole = await t.deps.db.select().from(tables().creditNotes);
    expect(whole).toMatchObject([
      { issuer: 'platform', taxableValuePaise: 15_125, igstPaise: 2_723, totalPaise: 17_848 },
    ]);
  });

  it("the sales money and the payout statement count part refunds, the fee part as the platform's", async () => {
    const { bookingId } = await buy(t, ev, 2);
    await refundPart({ bookingId, allButFee: true, reason: 'Headliner did not play' });
    await refundPart({ bookingId, amountPaise: 10_000, reason: 'Fee waived' });
    const res = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: ev.eventId },
      { cookie: organiser.cookie },
    );
    // Refunded 236,000 + 10,000 = 246,000, both processed; of it 10,000 came out of the fee, so the ticket
    // refunds are 236,000 and the payable 236,000 − 236,000 = 0.
    expect((res.data as { money: Record<string, number> }).money).toMatchObject({
      ticketRevenuePaise: 236_000,
      refundsPaise: 246_000,
      refundsPendingPaise: 0,
      ticketRefundsPaise: 236_000,
      payablePaise: 0,
    });
    const payout = await callProcedure(
      t,
      'query',
      'console.payoutStatement',
      { eventId: ev.eventId },
      { cookie: organiser.cookie },
    );
    // The organiser's credit notes: the one part note on the admission invoice, 236,000 (the fee's note is the platform's).
    expect((payout.data as { statement: Record<string, number> }).statement).toMatchObject({
      creditNotes: 1,
      creditNotesPaise: 236_000,
      payablePaise: 0,
    });
  });

  it("the accountant's monthly CSV and the GSTR-1 export list the part credit notes", async () => {
    const { bookingId } = await buy(t, ev, 2);
    await refundPart({ bookingId, amountPaise: 50_000, reason: 'Sound failed in the first half' });
    await refundPart({ bookingId, allButFee: true, reason: 'Show cut short by rain' });
    const month = '2026-11';
    const csv = await new Response(streamInvoicesCsv(t.deps.db, organiser.userId, month)).text();
    const notes = csv
      .split('\r\n')
      .filter((line) => line.startsWith('Credit note'))
      .sort();
    // The two notes worked by hand in the first test: 423.72 + 38.14 + 38.14 = 500.00 and
    // 1,576.28 + 141.86 + 141.86 = 1,860.00, both against INV/26-27/000001.
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain('CRN/26-27/000001');
    expect(notes[0]).toContain('423.72');
    expect(notes[0]).toContain('500.00');
    expect(notes[1]).toContain('CRN/26-27/000002');
    expect(notes[1]).toContain('1576.28');
    const gstr1 = await gstr1Tables(t.deps.db, organiser.userId, month);
    // Table 13: the credit-note series from 000001 to 000002, two issued.
    expect(gstr1.docs).toContain('CRN/26-27/000001');
    expect(gstr1.docs).toContain('CRN/26-27/000002');
    // Table 12 (its B2C tab: the buyer has no GSTIN): the HSN summary nets the credit notes off the invoice:
    // 2,360.00 − 500.00 − 1,860.00 = 0.00 value, taxable 2,000.00 − 423.72 − 1,576.28 = 0.00, CGST and SGST
    // 180.00 − 38.14 − 141.86 = 0.00 (a part credit returns no quantity: 2 stays).
    expect(gstr1['hsn(b2c)']).toContain(
      '999622,Performing arts event production and presentation services,NA,2,0.00,18,0.00,0.00,0.00,0.00,0.00',
    );
  });

  it('cancels some tickets: seats go back only for tickets nobody walked in with', async () => {
    const typeId = ev.ticketTypeIds[0]!;
    // The type is in a shared capacity (ADR 0039): the seats going back go back to it too.
    const quota = await callProcedure(
      t,
      'mutation',
      'console.createQuota',
      {
        eventId: ev.eventId,
        quota: { name: 'Hall', capacity: 15, slotIds: [ev.slotId], ticketTypeIds: [typeId] },
      },
      { cookie: organiser.cookie },
    );
    expect(quota.status, JSON.stringify(quota.body)).toBe(200);
    const quotaId = (quota.data as { id: string }).id;
    const { bookingId } = await buy(t, ev, 3);
    await admit(bookingId, 2);
    const before = await countOf(typeId);
    const quotaBefore = await quotaAvailable(quotaId);
    // Two admitted, one ticket kept: one of the two cancelled tickets was used, its seat stays off sale.
    const res = await refundPart({
      bookingId,
      amountPaise: 118_000,
      reason: 'Two friends could not come',
      cancelTickets: [{ ticketTypeId: typeId, quantity: 2 }],
    });
    expect(res.status).toBe(200);
    expect((await parts())[0]!.cancelledTickets).toMatchObject([
      { id: typeId, quantity: 2, seatsReturned: 1 },
    ]);
    expect((await countOf(typeId)).available).toBe(before.available + 1);
    expect(await quotaAvailable(quotaId)).toBe(quotaBefore + 1);
    expect(await bookingRow(bookingId)).toMatchObject({ ticketCount: 1, status: 'confirmed' });
    expect((await bookingRow(bookingId)).ticketTypes[0]!.quantity).toBe(1);
    const mail = (await mailOf(
      `booking-part-refund:${(res.data as { refundPartId: string }).refundPartId}`,
    ))!;
    expect(mail.text).toContain('The organiser has cancelled 2 × Floor of your booking');

    // Nobody admitted with another booking: both cancelled seats go back on sale.
    const other = await buy(t, ev, 3);
    const mid = await countOf(typeId);
    await refundPart({
      bookingId: other.bookingId,
      amountPaise: 1_000,
      reason: 'Seats moved',
      cancelTickets: [{ ticketTypeId: typeId, quantity: 2 }],
    });
    expect((await countOf(typeId)).available).toBe(mid.available + 2);

    // Every ticket of a booking: that is a cancellation, not a part.
    const all = await refundPart({
      bookingId: other.bookingId,
      amountPaise: 1_000,
      reason: 'All',
      cancelTickets: [{ ticketTypeId: typeId, quantity: 1 }],
    });
    expect(all.body.error?.message).toBe(PART_REFUND_REFUSALS.allTickets);
  });

  it("another organiser's booking answers NOT_FOUND and changes nothing", async () => {
    const { bookingId } = await buy(t, ev, 2);
    const stranger = await account(t, 'organiser');
    const theirs = await ownedEvent(t, stranger.userId);
    // Their own event id with our booking id, and our event id: both not found / not theirs.
    const res = await callProcedure(
      t,
      'mutation',
      'eventBookings.refundPart',
      { eventId: theirs.eventId, bookingId, amountPaise: 1_000, reason: 'Not mine' },
      { cookie: stranger.cookie },
    );
    expect(res.status).toBe(404);
    expect(res.body.error?.message).toBe(EVENT_BOOKING_NOT_FOUND);
    const direct = await refundPart({ bookingId, amountPaise: 1_000, reason: 'Not mine' }, stranger.cookie);
    expect(direct.status).toBe(404);
    expect(await parts()).toEqual([]);
  });

  it.each([
    ['a negative amount', { amountPaise: -100 }, PART_REFUND_MESSAGES.amountPositive],
    ['zero', { amountPaise: 0 }, PART_REFUND_MESSAGES.amountPositive],
    ['a fraction of a paisa', { amountPaise: 10.5 }, PART_REFUND_MESSAGES.amountWhole],
    ['no amount and not "all but the fee"', {}, PART_REFUND_MESSAGES.amountRequired],
    [
      'a 50,000-character reason',
      { amountPaise: 100, reason: 'x'.repeat(50_000) },
      PART_REFUND_MESSAGES.reasonLong,
    ],
    ['no reason', { amountPaise: 100, reason: '  ' }, PART_REFUND_MESSAGES.reasonShort],
    [
      'zero tickets of a type',
      { amountPaise: 100, cancelTickets: [{ ticketTypeId: 'x', quantity: 0 }] },
      PART_REFUND_MESSAGES.quantityPositive,
    ],
  ])('refuses %s with a clear message', async (_, input, message) => {
    const { bookingId } = await buy(t, ev, 2);
    const res = await refundPart({ bookingId, reason: 'Goodwill', ...input });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error)).toContain(message);
    expect(await parts()).toEqual([]);
  });

  it('refuses more than was paid, and tickets the booking does not have', async () => {
    const { bookingId } = await buy(t, ev, 2);
    const over = await refundPart({ bookingId, amountPaise: 263_849, reason: 'Too much' });
    expect(over.status).toBe(400);
    expect(over.body.error?.message).toBe(PART_REFUND_REFUSALS.overLeft('₹2,638.48'));
    const tooMany = await refundPart({
      bookingId,
      amountPaise: 100,
      reason: 'x tickets',
      cancelTickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 3 }],
    });
    expect(tooMany.body.error?.message).toBe(PART_REFUND_REFUSALS.tooManyTickets('Floor', 2));
    const unknown = await refundPart({
      bookingId,
      amountPaise: 100,
      reason: 'x tickets',
      cancelTickets: [{ ticketTypeId: 'nope', quantity: 1 }],
    });
    expect(unknown.body.error?.message).toBe(PART_REFUND_REFUSALS.unknownTicket);
    expect(await parts()).toEqual([]);
  });
});

/**
 * A booking mixing a type whose attendees have their own QR (ADR 0046) with a type on the booking's QR:
 * which cancelled tickets were used is known per attendee ticket for the first, and counted booking-wide
 * only for the second. A cancelled ticket someone walked in on keeps its seat off sale (pretix: a
 * checked-in position may be cancelled, its quota is not given back).
 */
describe('cancelling tickets of a booking with attendee tickets', () => {
  /** Stalls (one QR per attendee) and Balcony (the booking's QR), both in one shared capacity. */
  async function mixedEvent() {
    const mixed = await createTicketedEventOn(t.deps.db, {
      types: [
        { name: 'Stalls', pricePaise: 118_000, totalTickets: 20 },
        { name: 'Balcony', pricePaise: 59_000, totalTickets: 20 },
      ],
      platformFeeRate: 10,
    });
    const { events, ticketTypes } = tables();
    await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, mixed.eventId));
    const [stalls, balcony] = mixed.ticketTypeIds as [string, string];
    await t.deps.db.update(ticketTypes).set({ perAttendeeTickets: true }).where(eq(ticketTypes.id, stalls));
    const quota = await callProcedure(
      t,
      'mutation',
      'console.createQuota',
      {
        eventId: mixed.eventId,
        quota: { name: 'Hall', capacity: 30, slotIds: [mixed.slotId], ticketTypeIds: [stalls, balcony] },
      },
      { cookie: organiser.cookie },
    );
    expect(quota.status, JSON.stringify(quota.body)).toBe(200);
    return { mixed, stalls, balcony, quotaId: (quota.data as { id: string }).id };
  }
  type Mixed = Awaited<ReturnType<typeof mixedEvent>>;

  /** 1 × Stalls + 1 × Balcony through the real checkout. */
  async function buyOneOfEach(m: Mixed) {
    const { bookingId } = await buyAs(t, await signedInUser(t), m.mixed, 2, {
      extra: {
        selectedTickets: [
          { ticketTypeId: m.stalls, quantity: 1 },
          { ticketTypeId: m.balcony, quantity: 1 },
        ],
      },
    });
    return bookingId;
  }

  /** One person in at the gate with `token` (an attendee's own QR, or the booking's). */
  async function scan(m: Mixed, token: string) {
    const res = await recordScan(
      t.deps.db,
      t.deps.appSecret,
      { eventId: m.mixed.eventId, staffUserId: organiser.userId },
      {
        slotId: m.mixed.slotId,
        gate: 'North gate',
        deviceId: 'test-device',
        scanId: `scan-${token.slice(-12)}`,
        token,
        persons: 1,
      },
      t.clock.now(),
    );
    expect(res.outcome).toBe('admit');
  }
  const stallsQr = (m: Mixed, bookingId: string) =>
    signAttendeeTicketToken(t.deps.appSecret, bookingId, 0, { ticketTypeId: m.stalls, position: 1 });

  const cancel = (m: Mixed, bookingId: string, ticketTypeId: string) =>
    callProcedure(
      t,
      'mutation',
      'eventBookings.refundPart',
      {
        eventId: m.mixed.eventId,
        bookingId,
        amountPaise: 1_000,
        reason: 'One guest cannot come',
        cancelTickets: [{ ticketTypeId, quantity: 1 }],
      },
      { cookie: organiser.cookie },
    );

  /** The seats left of both types and of their shared capacity. */
  const seatsLeft = async (m: Mixed) => ({
    stalls: (await countOf(m.stalls)).available,
    balcony: (await countOf(m.balcony)).available,
    quota: await quotaAvailable(m.quotaId),
  });

  it('an admitted attendee’s cancelled ticket keeps its seat off sale, though a kept ticket is unused', async () => {
    const m = await mixedEvent();
    const bookingId = await buyOneOfEach(m);
    // The Stalls attendee walks in on their own QR; nobody comes on the Balcony ticket.
    await scan(m, stallsQr(m, bookingId));
    const before = await seatsLeft(m);

    const res = await cancel(m, bookingId, m.stalls);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await parts())[0]!.cancelledTickets).toMatchObject([
      { id: m.stalls, quantity: 1, seatsReturned: 0 },
    ]);
    expect(await seatsLeft(m)).toEqual(before);
    // The one attendee ticket there was is voided (pretix cancels a checked-in position too); the booking
    // keeps its Balcony ticket, and the person already in still counts.
    const { attendeeTickets } = tables();
    const voided = await t.deps.db
      .select({ position: attendeeTickets.position, admitted: attendeeTickets.admitted })
      .from(attendeeTickets)
      .where(and(eq(attendeeTickets.bookingId, bookingId), isNotNull(attendeeTickets.voidedAt)));
    expect(voided).toEqual([{ position: 1, admitted: 1 }]);
    expect(await bookingRow(bookingId)).toMatchObject({ ticketCount: 1, numberOfUserCheckedIn: 1 });
  });

  it('the mirror: cancelling the Balcony nobody used returns its seat, the admitted attendee keeps theirs', async () => {
    const m = await mixedEvent();
    const bookingId = await buyOneOfEach(m);
    await scan(m, stallsQr(m, bookingId));
    const before = await seatsLeft(m);

    const res = await cancel(m, bookingId, m.balcony);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await parts())[0]!.cancelledTickets).toMatchObject([
      { id: m.balcony, quantity: 1, seatsReturned: 1 },
    ]);
    expect(await seatsLeft(m)).toEqual({
      stalls: before.stalls,
      balcony: before.balcony + 1,
      quota: before.quota + 1,
    });
  });

  it('a person let in on the booking’s QR is not taken to be the unused attendee’s', async () => {
    const m = await mixedEvent();
    const bookingId = await buyOneOfEach(m);
    // The Balcony guest walks in on the booking's QR (it admits the persons of its other tickets only).
    await scan(m, signTicketToken(t.deps.appSecret, bookingId));
    const before = await seatsLeft(m);

    const res = await cancel(m, bookingId, m.balcony);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await parts())[0]!.cancelledTickets).toMatchObject([
      { id: m.balcony, quantity: 1, seatsReturned: 0 },
    ]);
    expect(await seatsLeft(m)).toEqual(before);
  });
});
