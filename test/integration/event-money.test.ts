import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { type RefundPolicy, refundAmountPaise } from '../../shared/refund-policy.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { cancelBookingSteps } from '../../src-server/services/bookings/cancel-booking-in.ts';
import { creditShareFor } from '../../src-server/services/invoices/issue-credit-note.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { account, buy, type Person } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 35, item 19: one definition of an event's money, the same on the Sales page's money panel and
 * the console's list row, with every figure worked by hand.
 *
 * A GST-registered organiser in Maharashtra sells Gold at ₹1,180 including 18 % GST, in Mumbai (intra-
 * state), with the default 5 % convenience fee; the platform is registered (the test app's demo
 * registration), so the fee carries 18 % GST. Per ticket, in paise:
 *   price 1,18,000 = taxable 1,00,000 (1,18,000 × 100/118) + GST 18,000
 *   fee 5,900 (5 % of 1,18,000) + GST on it 1,062 (18 % of 5,900) = platform's 6,962
 *   the buyer pays 1,18,000 + 6,962 = 1,24,962
 */
const PROFILE = {
  legalName: 'Tala Collective LLP',
  address: '12 Hill Road, Bandra, Mumbai 400050',
  state: 'Maharashtra',
  gstin: '27AAPFU0939F1ZV',
};

describe('an event’s money, one definition everywhere', () => {
  let t: TestApp;
  let organiser: Person;
  let ev: TicketedEvent;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    organiser = await account(t, 'organiser');
    await saveOrganiserProfile(
      t.deps.db,
      platformGstOf(t.deps.env),
      organiser.userId,
      organiserProfileSchema.parse(PROFILE),
      t.clock.now(),
    );
    ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
    });
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  });
  afterEach(async () => {
    await t.close();
  });

  const money = async () => {
    const res = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: ev.eventId },
      { cookie: organiser.cookie },
    );
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    return (res.data as { money: Record<string, number> }).money;
  };
  const listRow = async () => {
    const res = await callProcedure(t, 'query', 'console.myEvents', undefined, { cookie: organiser.cookie });
    return (res.data as { id: string; ticketRevenuePaise: number; payablePaise: number }[]).find(
      (e) => e.id === ev.eventId,
    );
  };
  /** The buyer cancels under `policy`: the refund and the credit notes the cancellation service makes. */
  const buyerCancels = async (bookingId: string, policy: RefundPolicy) => {
    const { bookings } = tablesOf(t.deps.db);
    const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    return runnerFor(t.deps.db).write((tx) =>
      cancelBookingSteps(tx as WriteTx, t.deps, bookingId, 'buyer', t.clock.now(), {
        partial: { refundAmountPaise: refundAmountPaise(policy, booking!), credit: creditShareFor(policy) },
      }),
    );
  };

  it('two tickets at ₹1,180, one refunded in full: ticket revenue, GST, platform fees, refunds, payable', async () => {
    await buy(t, ev, 1);
    const refunded = await buy(t, ev, 1);
    await runnerFor(t.deps.db).write((tx) =>
      cancelBookingSteps(tx as WriteTx, t.deps, refunded.bookingId, 'organiser', t.clock.now()),
    );

    expect(await money()).toEqual({
      orders: 2,
      confirmedOrders: 1,
      cancelledOrders: 1,
      // 2 × 1,24,962
      paidByBuyersPaise: 249_924,
      // 2 × 1,18,000: the ticket prices paid, GST in them, fees not
      ticketRevenuePaise: 236_000,
      // No add-ons were sold (ADR 0041).
      addOnRevenuePaise: 0,
      // 2 × 18,000, as the organiser's two invoices charged it (CGST 9,000 + SGST 9,000 each)
      ticketGstPaise: 36_000,
      // 2 × (5,900 + 1,062): the platform's, not the organiser's
      platformFeesPaise: 13_924,
      // of which the fees 2 × 5,900 and the GST on them 2 × 1,062 (issue 40's payout statement splits them)
      convenienceFeesPaise: 11_800,
      feeGstPaise: 2_124,
      // The organiser's cancellation refunds the whole 1,24,962 …
      refundsPaise: 124_962,
      refundsPendingPaise: 124_962,
      // … of which 1,18,000 came out of the tickets and 6,962 is the platform's fee going back.
      ticketRefundsPaise: 118_000,
      // No discount code used (payout-statement.test.ts counts one).
      discountsPaise: 0,
      // No comps and no sale at the door (issue 40, box-office.test.ts counts them).
      compOrders: 0,
      doorSales: 0,
      doorCashPaise: 0,
      doorUpiPaise: 0,
      collectedAtDoorPaise: 0,
      // 2,36,000 − 1,18,000. (The old panel's "Net", gross − refunds, said 1,24,962: the fee and its GST
      // counted as the organiser's.)
      payablePaise: 118_000,
    });
    // The console's list row shows the same figures.
    expect(await listRow()).toMatchObject({ ticketRevenuePaise: 236_000, payablePaise: 118_000 });
  });

  it('a refund that keeps the fee, and a 50 % refund, split between the tickets and the platform’s fee', async () => {
    await buy(t, ev, 1);
    const keepsFee = await buy(t, ev, 1);
    const half = await buy(t, ev, 1);
    // 'minus_fee': the refund is the ticket price, 1,18,000; the platform keeps its 6,962.
    await buyerCancels(keepsFee.bookingId, { cutoffHours: 24, rule: 'minus_fee', percent: null });
    // 50 %: ⌊1,24,962 / 2⌋ = 62,481, the same share of each part: the fee's 6,962 / 2 = 3,481
    // (half-up), the tickets' 62,481 − 3,481 = 59,000 (half of 1,18,000, as the credit note says).
    await buyerCancels(half.bookingId, { cutoffHours: 24, rule: 'percent', percent: 50 });

    expect(await money()).toMatchObject({
      orders: 3,
      cancelledOrders: 2,
      // 3 × 1,18,000, with 3 × 18,000 GST in it
      ticketRevenuePaise: 354_000,
      ticketGstPaise: 54_000,
      // 3 × 6,962
      platformFeesPaise: 20_886,
      // 1,18,000 + 62,481
      refundsPaise: 180_481,
      // 1,18,000 + 59,000
      ticketRefundsPaise: 177_000,
      // 3,54,000 − 1,77,000
      payablePaise: 177_000,
    });
    expect(await listRow()).toMatchObject({ ticketRevenuePaise: 354_000, payablePaise: 177_000 });
  });
});
