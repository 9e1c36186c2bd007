import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { CALLERS } from '../helpers/console-world.ts';
import { account, buy, consoleWorld, type Person, teamMember } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 40: the organiser's payout statement of one month (India time), every event of theirs in it,
 * by the per-event statement's own definition (event-money.ts through get-payout-statement.ts).
 *
 * A GST-registered organiser in Maharashtra runs two events, prices including 18 % GST (intra-state),
 * the default 5 % convenience fee with 18 % GST on it (the platform's). Per ticket, in paise:
 *   Jazz on the Lawn, Gold 1,18,000 = taxable 1,00,000 + GST 18,000; fee 5,900 + its GST 1,062;
 *     the buyer pays 1,24,962.
 *   Sitar at Dawn, Silver 59,000 = taxable 50,000 + GST 9,000; fee 2,950 + its GST 531;
 *     the buyer pays 62,481.
 * November 2026 (the test clock starts on 21 Nov, 12:00 India time):
 *   Jazz: one booking of 2 Gold; one of 1 Gold, which the organiser cancels the same month (a full
 *     refund of 1,24,962, of which 1,18,000 the organiser's and 6,962 the platform's fee; one credit
 *     note for the invoice's 1,18,000).
 *   Sitar: one booking of 1 Silver, and one complimentary Silver (₹0) from the box office.
 *   Another organiser's event sells a ticket: never in this organiser's statement.
 * December 2026: Jazz sells 1 Gold more.
 */
const PROFILE = {
  legalName: 'Tala Collective LLP',
  address: '12 Hill Road, Bandra, Mumbai 400050',
  state: 'Maharashtra',
  gstin: '27AAPFU0939F1ZV',
};
const DECEMBER = new Date('2026-12-01T04:30:00.000Z'); // 1 Dec 2026, 10:00 India time

const csvUrl = (month: string) => `/api/organiser/payout.csv?month=${month}`;

/** An event of one ticket type (Gold above ₹1,000, else Silver) owned by `ownerId`. */
async function ownedBy(t: TestApp, ownerId: string, name: string, pricePaise = 118_000) {
  const ev = await createTicketedEventOn(t.deps.db, {
    name,
    types: [{ name: pricePaise > 100_000 ? 'Gold' : 'Silver', pricePaise, totalTickets: 20 }],
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId }).where(eq(events.id, ev.eventId));
  return ev;
}

describe('the organiser’s monthly payout statement', () => {
  let t: TestApp;
  let organiser: Person;
  let other: Person;
  let jazz: TicketedEvent;
  let sitar: TicketedEvent;
  let elsewhere: TicketedEvent;

  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    organiser = await account(t, 'organiser');
    other = await account(t, 'organiser');
    await saveOrganiserProfile(
      t.deps.db,
      platformGstOf(t.deps.env),
      organiser.userId,
      organiserProfileSchema.parse(PROFILE),
      t.clock.now(),
    );
    jazz = await ownedBy(t, organiser.userId, 'Jazz on the Lawn', 118_000);
    sitar = await ownedBy(t, organiser.userId, 'Sitar at Dawn', 59_000);
    elsewhere = await ownedBy(t, other.userId, 'Someone Else’s Gig', 118_000);
  });
  afterEach(async () => {
    await t.close();
  });

  const monthly = (month: unknown, cookie = organiser.cookie, page?: number) =>
    callProcedure(
      t,
      'query',
      'console.monthlyPayoutStatement',
      { month, ...(page ? { page } : {}) },
      { cookie },
    );
  const eventStatement = async (eventId: string, month: string) => {
    const res = await callProcedure(
      t,
      'query',
      'console.payoutStatement',
      { eventId, month },
      { cookie: organiser.cookie },
    );
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    return (res.data as { statement: Record<string, number | string> }).statement;
  };

  /** November and December as the file's comment tells them. */
  async function sellAcrossTwoMonths() {
    await buy(t, jazz, 2);
    const refunded = await buy(t, jazz, 1);
    await buy(t, sitar, 1);
    await buy(t, elsewhere, 1);
    t.clock.advance(60_000);
    const cancel = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: jazz.eventId, bookingId: refunded.bookingId },
      { cookie: organiser.cookie },
    );
    expect(cancel.status, JSON.stringify(cancel.body.error)).toBe(200);
    const comp = await callProcedure(
      t,
      'mutation',
      'boxOffice.issueComp',
      {
        eventId: sitar.eventId,
        slotId: sitar.slotId,
        lines: [{ ticketTypeId: sitar.ticketTypeIds[0], quantity: 1 }],
        name: 'Ravi Kulkarni',
        email: 'ravi.guest@example.com',
        phone: '98200 12345',
        reason: "Artist's guest",
      },
      { cookie: organiser.cookie },
    );
    expect(comp.status, JSON.stringify(comp.body.error)).toBe(200);
    t.clock.set(DECEMBER);
    await buy(t, jazz, 1);
  }

  it('November by hand: a row per event, the total their sum, each row the event’s own statement', async () => {
    await sellAcrossTwoMonths();

    const res = await monthly('2026-11');
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    const november = res.data as {
      month: string;
      events: Record<string, number | string>[];
      total: Record<string, number | string>;
      eventCount: number;
      page: number;
      pageCount: number;
    };
    expect(november).toMatchObject({ month: '2026-11', eventCount: 2, page: 1, pageCount: 1 });
    // By name; the other organiser's event is not there.
    expect(november.events.map((e) => e.eventName)).toEqual(['Jazz on the Lawn', 'Sitar at Dawn']);
    const [jazzRow, sitarRow] = november.events;
    expect(jazzRow).toEqual({
      eventId: jazz.eventId,
      eventName: 'Jazz on the Lawn',
      month: '2026-11',
      orders: 2,
      // 3 × 1,18,000 (2 + 1 Gold), GST in them
      ticketRevenuePaise: 354_000,
      addOnRevenuePaise: 0,
      // 3 × 18,000
      ticketGstPaise: 54_000,
      // 3 × 5,900 and 3 × 1,062: the platform's
      convenienceFeesPaise: 17_700,
      feeGstPaise: 3_186,
      // the cancelled booking's whole 1,24,962, of which 1,18,000 the organiser's
      refundsPaise: 124_962,
      refundsPendingPaise: 0,
      ticketRefundsPaise: 118_000,
      creditNotes: 1,
      creditNotesPaise: 118_000,
      discountsPaise: 0,
      comps: 0,
      doorSales: 0,
      doorCashPaise: 0,
      doorUpiPaise: 0,
      collectedAtDoorPaise: 0,
      // 3,54,000 − 1,18,000
      payablePaise: 236_000,
    });
    expect(sitarRow).toEqual({
      eventId: sitar.eventId,
      eventName: 'Sitar at Dawn',
      month: '2026-11',
      // the Silver sold and the comp
      orders: 2,
      ticketRevenuePaise: 59_000,
      addOnRevenuePaise: 0,
      ticketGstPaise: 9_000,
      convenienceFeesPaise: 2_950,
      feeGstPaise: 531,
      refundsPaise: 0,
      refundsPendingPaise: 0,
      ticketRefundsPaise: 0,
      creditNotes: 0,
      creditNotesPaise: 0,
      discountsPaise: 0,
      comps: 1,
      doorSales: 0,
      doorCashPaise: 0,
      doorUpiPaise: 0,
      collectedAtDoorPaise: 0,
      payablePaise: 59_000,
    });
    expect(november.total).toEqual({
      month: '2026-11',
      orders: 4,
      // 3,54,000 + 59,000
      ticketRevenuePaise: 413_000,
      addOnRevenuePaise: 0,
      // 54,000 + 9,000
      ticketGstPaise: 63_000,
      // 17,700 + 2,950 and 3,186 + 531
      convenienceFeesPaise: 20_650,
      feeGstPaise: 3_717,
      refundsPaise: 124_962,
      refundsPendingPaise: 0,
      ticketRefundsPaise: 118_000,
      creditNotes: 1,
      creditNotesPaise: 118_000,
      discountsPaise: 0,
      comps: 1,
      doorSales: 0,
      doorCashPaise: 0,
      doorUpiPaise: 0,
      collectedAtDoorPaise: 0,
      // 2,36,000 + 59,000
      payablePaise: 295_000,
    });

    // Each row is the event's own statement for the month, figure for figure.
    for (const row of november.events) {
      const { eventId, eventName: _name, ...figures } = row;
      expect(await eventStatement(eventId as string, '2026-11')).toEqual(figures);
    }

    // December: only the Gold sold on the 1st.
    const december = (await monthly('2026-12')).data as {
      events: Record<string, number | string>[];
      total: Record<string, number | string>;
    };
    expect(december.events.map((e) => e.eventName)).toEqual(['Jazz on the Lawn']);
    expect(december.total).toMatchObject({
      month: '2026-12',
      orders: 1,
      ticketRevenuePaise: 118_000,
      refundsPaise: 0,
      comps: 0,
      payablePaise: 118_000,
    });
    const { eventId: _id, eventName: _n, ...decemberJazz } = december.events[0]!;
    expect(await eventStatement(jazz.eventId, '2026-12')).toEqual(decemberJazz);
    expect(decemberJazz).toEqual(december.total);

    // The other organiser's month has their event alone.
    const theirs = (await monthly('2026-11', other.cookie)).data as {
      events: { eventId: string }[];
      total: { payablePaise: number };
    };
    expect(theirs.events.map((e) => e.eventId)).toEqual([elsewhere.eventId]);
    expect(theirs.total.payablePaise).toBe(118_000);

    // A month without activity: no rows, a total of zeroes.
    const october = (await monthly('2026-10')).data as {
      events: unknown[];
      total: Record<string, unknown>;
      eventCount: number;
    };
    expect(october.events).toEqual([]);
    expect(october.eventCount).toBe(0);
    expect(october.total).toMatchObject({ orders: 0, ticketRevenuePaise: 0, payablePaise: 0 });
  });

  it('the CSV: a row per event and the total, in the per-event CSV’s columns', async () => {
    await sellAcrossTwoMonths();
    const res = await t.request(csvUrl('2026-11'), { headers: { cookie: organiser.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="jalsa-payout-2026-11.csv"');
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Event,Month,Orders,Ticket revenue (INR),Add-on revenue (INR),GST on tickets and add-ons (INR),"Convenience fees, platform (INR)","GST on fees, platform (INR)",Refunds (INR),Refunds pending (INR),Refunds from organiser revenue (INR),Credit notes,Credit notes value (INR),Discounts (INR),Comps,Payable to organiser (INR),Door sales,Door cash (INR),Door UPI (INR),Collected at the door (INR)',
    );
    expect(lines.slice(1)).toEqual([
      'Jazz on the Lawn,2026-11,2,3540.00,0.00,540.00,177.00,31.86,1249.62,0.00,1180.00,1,1180.00,0.00,0,2360.00,0,0.00,0.00,0.00',
      'Sitar at Dawn,2026-11,2,590.00,0.00,90.00,29.50,5.31,0.00,0.00,0.00,0,0.00,0.00,1,590.00,0,0.00,0.00,0.00',
      'Total,2026-11,4,4130.00,0.00,630.00,206.50,37.17,1249.62,0.00,1180.00,1,1180.00,0.00,1,2950.00,0,0.00,0.00,0.00',
    ]);
  });

  it('refuses a month that is malformed, missing or still to come, with a clear message', async () => {
    // The clock is in November 2026: December has not begun.
    for (const [month, message] of [
      ['2026-13', 'Month must look like 2026-04'],
      ['Nov 2026', 'Month must look like 2026-04'],
      [undefined, 'Choose a month, like 2026-04'],
      ['2026-12', 'That month has not begun yet. Choose this month or an earlier one.'],
      ['2031-01', 'That month has not begun yet. Choose this month or an earlier one.'],
    ] as const) {
      const res = await monthly(month);
      expect({ month, status: res.status, message: res.body.error?.message }).toEqual({
        month,
        status: 400,
        message,
      });
    }
    expect((await monthly('2026-11')).status).toBe(200);
    for (const [query, message] of [
      ['?month=2026-13', 'Month must look like 2026-04'],
      ['', 'Choose a month, like 2026-04'],
      ['?month=2026-12', 'That month has not begun yet. Choose this month or an earlier one.'],
    ] as const) {
      const res = await t.request(`/api/organiser/payout.csv${query}`, {
        headers: { cookie: organiser.cookie },
      });
      expect({ query, status: res.status, body: await res.json() }).toEqual({
        query,
        status: 400,
        body: { error: { message } },
      });
    }
  });
});

describe('who may have an organiser’s monthly statement', () => {
  it('organisers and admins, each their own events only; team members and buyers are refused', async () => {
    const t = await createTestAppOn(testEngine());
    try {
      const w = await consoleWorld(t);
      await buy(t, w.event, 1);
      await buy(t, w.otherEvent, 1);
      const expected = {
        'signed out': '401',
        buyer: '403',
        'organiser of another event': [w.otherEvent.eventId],
        'gate staff': '403',
        'box office': '403',
        'co-organiser': '403',
        owner: [w.event.eventId],
        // An admin's own statement: the admin owns no event here (another's is the per-event statement's).
        admin: [],
      };
      const seen: Record<string, unknown> = {};
      const csv: Record<string, unknown> = {};
      for (const caller of CALLERS) {
        const cookie = w.cookieOf(caller);
        const res = await callProcedure(
          t,
          'query',
          'console.monthlyPayoutStatement',
          { month: '2026-11' },
          { cookie },
        );
        seen[caller] =
          res.status === 200
            ? (res.data as { events: { eventId: string }[] }).events.map((e) => e.eventId)
            : `${res.status}`;
        const file = await t.request(csvUrl('2026-11'), { headers: cookie ? { cookie } : {} });
        const body = await file.text();
        csv[caller] = file.status === 200 ? body.split('\r\n').length - 3 : `${file.status}`;
        if (file.status !== 200) expect(body, caller).not.toContain('Payable');
      }
      expect(seen).toEqual(expected);
      // The CSV answers alike: as many event rows as the statement (header, total and the final CRLF aside).
      expect(csv).toEqual(
        Object.fromEntries(
          Object.entries(expected).map(([caller, v]) => [caller, Array.isArray(v) ? v.length : v]),
        ),
      );

      // An organiser who also helps run someone else's event, as co-organiser or at the box office, sees
      // only their own events: no team role may see an event's payouts (viewPayouts).
      const helper = w.people['organiser of another event'];
      for (const role of ['co_organiser', 'box_office'] as const) {
        const other = await ownedBy(t, w.people.owner.userId, `Helped ${role}`);
        await buy(t, other, 1);
        await teamMember(t, other.eventId, helper.userId, role);
        const res = await callProcedure(
          t,
          'query',
          'console.monthlyPayoutStatement',
          { month: '2026-11' },
          { cookie: helper.cookie },
        );
        expect(
          (res.data as { events: { eventId: string }[] }).events.map((e) => e.eventId),
          role,
        ).toEqual([w.otherEvent.eventId]);
      }
    } finally {
      await t.close();
    }
  });
});
