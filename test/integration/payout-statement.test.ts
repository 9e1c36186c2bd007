import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { CALLERS } from '../helpers/console-world.ts';
import { account, buy as buyTickets, consoleWorld, type Person } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 40: the payout statement per event and month, by event-money.ts's one definition.
 *
 * A GST-registered organiser in Maharashtra sells Gold at ₹1,180 including 18 % GST (intra-state), with
 * the default 5 % convenience fee; the platform is registered, so the fee carries 18 % GST. Per ticket,
 * in paise:
 *   price 1,18,000 = taxable 1,00,000 + GST 18,000 (CGST 9,000 + SGST 9,000)
 *   fee 5,900 (5 % of 1,18,000) + GST on it 1,062 (18 % of 5,900): the platform's 6,962
 *   the buyer pays 1,18,000 + 6,962 = 1,24,962
 * The test clock starts on 21 Nov 2026, 12:00 India time; the show is on 5 Dec.
 */
const PROFILE = {
  legalName: 'Tala Collective LLP',
  address: '12 Hill Road, Bandra, Mumbai 400050',
  state: 'Maharashtra',
  gstin: '27AAPFU0939F1ZV',
};
const _DAY = 86_400_000;
const csvUrl = (eventId: string, query = '') => `/api/organiser/events/${eventId}/payout.csv${query}`;

describe('the payout statement', () => {
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

  const statement = async (month?: string) => {
    const res = await callProcedure(
      t,
      'query',
      'console.payoutStatement',
      { eventId: ev.eventId, ...(month ? { month } : {}) },
      { cookie: organiser.cookie },
    );
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    return res.data as { months: string[]; statement: Record<string, number | string> | null };
  };
  const salesPanel = async () => {
    const res = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: ev.eventId },
      { cookie: organiser.cookie },
    );
    return (res.data as { money: Record<string, number> }).money;
  };
  const organiserCancels = async (bookingId: string) => {
    const res = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId },
      { cookie: organiser.cookie },
    );
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  };

  it('a month of two bookings, one refunded: every figure by hand, and the Sales panel’s', async () => {
    await buyTickets(t, ev, 1);
    const refunded = await buyTickets(t, ev, 1);
    t.clock.advance(60_000);
    await organiserCancels(refunded.bookingId);

    const { months, statement: november } = await statement();
    expect(months).toEqual(['2026-11']);
    expect(november).toEqual({
      month: '2026-11',
      orders: 2,
      // 2 × 1,18,000: the ticket prices paid, GST in them, fees not
      ticketRevenuePaise: 236_000,
      addOnRevenuePaise: 0,
      // 2 × 18,000, as the organiser's two invoices charged it
      ticketGstPaise: 36_000,
      // 2 × 5,900 and 2 × 1,062: the platform's, not the organiser's
      convenienceFeesPaise: 11_800,
      feeGstPaise: 2_124,
      // The organiser's cancellation refunds the whole 1,24,962 (issued at once: nothing pending) …
      refundsPaise: 124_962,
      refundsPendingPaise: 0,
      // … of which 1,18,000 came out of the tickets and 6,962 is the platform's fee going back.
      ticketRefundsPaise: 118_000,
      // One credit note on the organiser's invoice, for its whole 1,18,000 (the fee's is the platform's).
      creditNotes: 1,
      creditNotesPaise: 118_000,
      discountsPaise: 0,
      comps: 0,
      // No sale at the door (issue 40): nothing the organiser collected themselves.
      doorSales: 0,
      doorCashPaise: 0,
      doorUpiPaise: 0,
      collectedAtDoorPaise: 0,
      // 2,36,000 − 1,18,000
      payablePaise: 118_000,
    });
    // The Sales panel says the same, by the same definition.
    const panel = await salesPanel();
    expect(november).toMatchObject({
      orders: panel.orders,
      ticketRevenuePaise: panel.ticketRevenuePaise,
      ticketGstPaise: panel.ticketGstPaise,
      refundsPaise: panel.refundsPaise,
      ticketRefundsPaise: panel.ticketRefundsPaise,
      payablePaise: panel.payablePaise,
    });
    expect((november?.convenienceFeesPaise as number) + (november?.feeGstPaise as number)).toBe(
      panel.platformFeesPaise,
    );
  });

  it('a refund made next month lowers that month’s payable; the months add up to the Sales panel; the CSV says the same', async () => {
    await buyTickets(t, ev, 1);
    const later = await buyTickets(t, ev, 1);
    // 1 Dec 2026, 10:00 India time = 04:30 UTC.
    t.clock.set(new Date('2026-12-01T04:30:00.000Z'));
    await organiserCancels(later.bookingId);

    const all = await statement();
    expect(all.months).toEqual(['2026-12', '2026-11']);
    // November keeps both sales and no refund: 2 × 1,18,000 payable.
    expect((await statement('2026-11')).statement).toMatchObject({
      orders: 2,
      ticketRevenuePaise: 236_000,
      addOnRevenuePaise: 0,
      refundsPaise: 0,
      creditNotes: 0,
      payablePaise: 236_000,
    });
    // December: no sale, the refund of 1,24,962, of which 1,18,000 from the tickets: payable −1,18,000.
    expect(all.statement).toMatchObject({
      month: '2026-12',
      orders: 0,
      ticketRevenuePaise: 0,
      addOnRevenuePaise: 0,
      refundsPaise: 124_962,
      ticketRefundsPaise: 118_000,
      creditNotes: 1,
      payablePaise: -118_000,
    });
    const panel = await salesPanel();
    expect(236_000 - 118_000).toBe(panel.payablePaise);

    const res = await t.request(csvUrl(ev.eventId), { headers: { cookie: organiser.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Month,Orders,Ticket revenue (INR),Add-on revenue (INR),GST on tickets and add-ons (INR),"Convenience fees, platform (INR)","GST on fees, platform (INR)",Refunds (INR),Refunds pending (INR),Refunds from organiser revenue (INR),Credit notes,Credit notes value (INR),Discounts (INR),Comps,Payable to organiser (INR),Door sales,Door cash (INR),Door UPI (INR),Collected at the door (INR)',
    );
    expect(lines.slice(1)).toEqual([
      '2026-11,2,2360.00,0.00,360.00,118.00,21.24,0.00,0.00,0.00,0,0.00,0.00,0,2360.00,0,0.00,0.00,0.00',
      '2026-12,0,0.00,0.00,0.00,0.00,0.00,1249.62,0.00,1180.00,1,1180.00,0.00,0,-1180.00,0,0.00,0.00,0.00',
      'Total,2,2360.00,0.00,360.00,118.00,21.24,1249.62,0.00,1180.00,1,1180.00,0.00,0,1180.00,0,0.00,0.00,0.00',
    ]);
    const december = await t.request(csvUrl(ev.eventId, '?month=2026-12'), {
      headers: { cookie: organiser.cookie },
    });
    expect((await december.text()).trimEnd().split('\r\n').slice(1)).toEqual([lines[2]]);
  });

  it('counts what discount codes gave away on the month’s sales, before GST', async () => {
    const code = await callProcedure(
      t,
      'mutation',
      'console.createDiscountCode',
      {
        eventId: ev.eventId,
        code: {
          code: 'TALA100',
          kind: 'fixed',
          percentOff: null,
          amountOffPaise: 10_000,
          ticketTypeIds: null,
          validFrom: null,
          validUntil: null,
          maxUses: null,
          maxUsesPerBuyer: null,
        },
      },
      { cookie: organiser.cookie },
    );
    expect(code.status, JSON.stringify(code.body.error)).toBe(200);
    await buyTickets(t, ev, 2, { extra: { discountCode: 'tala100' } });
    await buyTickets(t, ev, 1);
    // ₹100 off each of the two tickets bought with the code; the other booking gave nothing away.
    expect((await statement()).statement).toMatchObject({ orders: 2, discountsPaise: 20_000 });
  });

  it('refuses a malformed month with a clear message', async () => {
    const res = await callProcedure(
      t,
      'query',
      'console.payoutStatement',
      { eventId: ev.eventId, month: '2026-13' },
      { cookie: organiser.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toContain('Month must look like 2026-04');
    const csv = await t.request(csvUrl(ev.eventId, '?month=nov'), { headers: { cookie: organiser.cookie } });
    expect(csv.status).toBe(400);
  });
});

describe('who may download the payout CSV', () => {
  it('the owner and admins; co-organisers and gate staff are refused, others told it does not exist', async () => {
    const t = await createTestAppOn(testEngine());
    try {
      const w = await consoleWorld(t);
      const expected = {
        'signed out': 401,
        buyer: 404,
        'organiser of another event': 404,
        'gate staff': 403,
        'box office': 403,
        'co-organiser': 403,
        owner: 200,
        admin: 200,
      } as const;
      for (const caller of CALLERS) {
        const cookie = w.cookieOf(caller);
        const res = await t.request(csvUrl(w.event.eventId), { headers: cookie ? { cookie } : {} });
        const body = await res.text();
        expect(res.status, caller).toBe(expected[caller]);
        if (res.status === 200) expect(body).toContain('Payable to organiser');
        else expect(body, caller).not.toContain('Payable');
        if (res.status === 404) {
          const unknown = await t.request(csvUrl('evt-doesnotexist'), { headers: { cookie: cookie! } });
          expect({ status: unknown.status, body: await unknown.text() }).toEqual({ status: 404, body });
        }
      }
    } finally {
      await t.close();
    }
  });
});
