import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADD_ON_MESSAGES } from '../../shared/add-on-schemas.ts';
import { DISCOUNT_REFUSALS } from '../../shared/discount-schemas.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { markEmailVerified } from '../../src-server/services/accounts/mark-email-verified.ts';
import type { AddOnRow } from '../../src-server/services/add-ons/list-add-ons.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { setAccountRoleByEmail } from '../../src-server/services/roles/set-account-role.ts';
import { signAttendeeTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { storefront } from '../helpers/storefront-http.ts';
import { createTestAppOn, type Engine, enginesFor, type TestApp } from '../helpers/test-app.ts';
import { allowLocalServers } from '../mocks/server.ts';

// Issue 38 with the box office's checkout features (issue 40): a buyer's checkout through the app's
// HTTP interface on either engine (createTestAppOn), the organiser's set-up made in the console over
// HTTP too. Attendee names and a question, per-attendee tickets, an add-on with stock, a one-use code and
// a shared capacity over two types: the same requests, the same answers on SQLite and PostgreSQL.

const engines = enginesFor('engine-checkout-extras.test.ts');

/** The platform is registered for GST, so the fee carries 18 % (shared/pricing.ts). */
const PLATFORM_GST = {
  PLATFORM_GSTIN: '29AAGCB7383J1Z4',
  PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
  PLATFORM_ADDRESS: 'Indiranagar, Bengaluru 560038',
  PLATFORM_STATE: 'Karnataka',
};

const TOTE = {
  name: 'Festival tote',
  description: 'Canvas, printed line-up',
  pricePaise: 30_000,
  taxRatePercent: 5,
  hsnSac: '4202',
  maxPerOrder: 2,
  ticketTypeIds: null,
  isActive: true,
  variants: [{ name: 'Indigo', stock: 1 }],
};

const DETAILS = {
  name: 'Asha Verma',
  email: 'asha@example.in',
  phone: '+91 98765-43210',
  state: 'Maharashtra',
};

/** What each engine answered, compared at the end: the same journey must read the same. */
const transcripts = new Map<Engine, Record<string, unknown>>();

/** The orders CSV as rows of cells (quoted cells may hold commas; no cell here holds a newline). */
function parseCsv(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
    .map((line) => {
      const cells: string[] = [];
      let cell = '';
      let quoted = false;
      for (let i = 0; i < line.length; i += 1) {
        const c = line[i]!;
        if (quoted && c === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else if (c === '"') quoted = !quoted;
        else if (c === ',' && !quoted) {
          cells.push(cell);
          cell = '';
        } else cell += c;
      }
      cells.push(cell);
      return cells;
    });
}

describe.each(engines)(
  'a checkout with names, a question, an add-on, a code and a shared capacity on %s',
  (engine) => {
    let t: TestApp;
    let site: ReturnType<typeof storefront>;
    let organiser: string;
    let ev: { eventId: string; dateId: string; slotId: string; ticketTypeId: string };
    let gold: string;
    let silver: string;
    let sizeQuestion: string;
    let variantId: string;
    let quotaId: string;
    const transcript: Record<string, unknown> = {};

    /** A verified buyer (Proceed needs one), signed up and in over HTTP: their cookie. */
    async function buyer(name: string, email: string) {
      const { cookie } = await site.signUpAndSignIn(name, email);
      await markEmailVerified(t.deps.db, email, t.clock.now());
      return cookie;
    }

    const consoleCall = async <T>(procedure: string, input: object) =>
      (await site.ok<T>('mutation', procedure, { eventId: ev.eventId, ...input }, organiser)).data;

    /** Proceed (payments.start) as the checkout page sends it. */
    function proceed(
      cookie: string,
      tickets: { ticketTypeId: string; quantity: number }[],
      extra: { answers?: object; addOns?: object[]; discountCode?: string } = {},
    ) {
      return site.call<CheckoutSession>(
        'mutation',
        'payments.start',
        {
          eventId: ev.eventId,
          selectedDate: ev.dateId,
          selectedSlot: ev.slotId,
          selectedTickets: tickets,
          ticketDetails: DETAILS,
          ...extra,
        },
        cookie,
      );
    }

    /** The simulator dialog's Pay, then the page's confirm callback: the booking's id. */
    async function payAndConfirm(cookie: string, orderId: string) {
      const pay = await t.request(`/api/simulator/orders/${orderId}/pay`, {
        method: 'POST',
        headers: { origin: 'http://localhost', cookie },
      });
      expect(pay.status).toBe(200);
      const paid = (await pay.json()) as Record<string, string>;
      const confirmed = await site.ok<{ outcome: string; bookingId: string }>(
        'mutation',
        'payments.confirm',
        {
          orderId: paid.razorpay_order_id,
          paymentId: paid.razorpay_payment_id,
          signature: paid.razorpay_signature,
        },
        cookie,
      );
      expect(confirmed.data.outcome).toBe('booked');
      await simulatorWebhooksDelivered(t.deps);
      return confirmed.data.bookingId;
    }

    const quota = async () =>
      (
        await site.ok<{ id: string; capacity: number; sold: number; held: number; left: number }[]>(
          'query',
          'console.quotas',
          { eventId: ev.eventId },
          organiser,
        )
      ).data.map(({ capacity, sold, held, left }) => ({ capacity, sold, held, left }));
    const stock = async () =>
      (await site.ok<AddOnRow[]>('query', 'console.addOns', { eventId: ev.eventId }, organiser)).data.map(
        (a) =>
          a.variants.map((v) => ({ name: v.name, stock: v.stock, held: v.held, sold: v.sold, left: v.left })),
      );

    beforeAll(async () => {
      allowLocalServers();
      t = await createTestAppOn(engine, PLATFORM_GST);
      site = storefront(t.request);
      const signedIn = await site.signUpAndSignIn('Ravi Rao', 'ravi@example.in');
      organiser = signedIn.cookie;
      await setAccountRoleByEmail(
        t.deps.db,
        { email: 'ravi@example.in', role: 'organiser', grantedBy: null },
        t.clock.now(),
      );
      // Gold, ₹499, 4% convenience fee, published from the console (storefront-http.ts).
      ev = await site.publishEvent(organiser, 'Kala Ghoda Nights', 'Pune', t.clock.now(), 10);
      gold = ev.ticketTypeId;
    }, 30_000);

    afterAll(async () => {
      await t?.close();
    });

    it('the organiser sets up names, a question, per-attendee tickets, an add-on, a code and a shared capacity', async () => {
      const version = async () =>
        (
          await site.ok<{ version: number }>(
            'query',
            'organiser.editableEvent',
            { eventId: ev.eventId },
            organiser,
          )
        ).data.version;
      const goldFields = {
        name: 'Gold',
        priceRupees: 499,
        totalTickets: 10,
        maxPerOrder: 6,
        personAllowedPerTicket: 1,
        description: '',
        benefits: [],
        isRefundable: true,
        onSale: true,
        saleOpensAt: null,
        saleClosesAt: null,
      };
      await consoleCall('organiser.updateTicketType', {
        version: await version(),
        ticketTypeId: gold,
        ticket: { ...goldFields, perAttendeeTickets: true },
      });
      silver = (
        await consoleCall<{ ticketTypeId: string }>('organiser.addTicketType', {
          version: await version(),
          slotId: ev.slotId,
          ticket: { ...goldFields, name: 'Silver', priceRupees: 299 },
        })
      ).ticketTypeId;
      await consoleCall('console.setAttendeeNames', { ticketTypeId: gold, mode: 'required' });
      sizeQuestion = (
        await consoleCall<{ id: string }>('console.createQuestion', {
          ticketTypeId: gold,
          question: {
            label: 'T-shirt size',
            kind: 'choice',
            options: ['S', 'M', 'L'],
            required: true,
            scope: 'attendee',
          },
        })
      ).id;
      await consoleCall('console.createAddOn', { addOn: TOTE });
      await consoleCall('console.createDiscountCode', {
        code: {
          code: 'MONSOON10',
          kind: 'percent',
          percentOff: 10,
          amountOffPaise: null,
          ticketTypeIds: null,
          validFrom: null,
          validUntil: null,
          maxUses: 1,
          maxUsesPerBuyer: null,
        },
      });
      quotaId = (
        await consoleCall<{ id: string }>('console.createQuota', {
          quota: { name: 'Ground', capacity: 4, slotIds: [ev.slotId], ticketTypeIds: [gold, silver] },
        })
      ).id;
      expect(quotaId).toBeTruthy();

      // What the buyer's checkout is offered: the form, the add-on and the seats the capacity leaves.
      const form = await site.ok<
        { ticketTypeId: string; attendeeNames: string; questions: { label: string }[] }[]
      >('query', 'questions.checkoutForm', { eventId: ev.eventId, slotId: ev.slotId });
      expect(form.data).toEqual([
        expect.objectContaining({
          ticketTypeId: gold,
          attendeeNames: 'required',
          questions: [expect.objectContaining({ label: 'T-shirt size', required: true })],
        }),
      ]);
      const options = await site.ok<{
        addOns: { variants: { id: string; name: string; left: number }[] }[];
        dates: { slots: { ticketTypes: { name: string; availableTickets: number }[] }[] }[];
      }>('query', 'tickets.options', { eventId: ev.eventId });
      variantId = options.data.addOns[0]!.variants[0]!.id;
      const offered = {
        types: options.data.dates[0]!.slots[0]!.ticketTypes.map((type) => [type.name, type.availableTickets]),
        addOns: options.data.addOns.map((a) => a.variants.map((v) => [v.name, v.left])),
      };
      // Each type has 10 of its own; the shared capacity of 4 limits both.
      expect(offered).toEqual({
        types: [
          ['Gold', 4],
          ['Silver', 4],
        ],
        addOns: [[['Indigo', 1]]],
      });
      transcript.offered = offered;
      transcript.form = form.data.map((f) => ({ ...f, ticketTypeId: 'gold', questions: f.questions.length }));
    });

    const answersFor = (sizes: string[], names = ['Asha Verma', 'Ravi Verma']) => ({
      names: names.map((name, i) => ({ ticketTypeId: gold, position: i + 1, name })),
      answers: sizes.map((value, i) => ({ questionId: sizeQuestion, position: i + 1, value })),
    });

    it('refuses a Proceed missing a required answer or name with the field’s message, holding nothing', async () => {
      const cookie = await buyer('Kavya Rao', 'kavya@example.in');
      const missing = await proceed(cookie, [{ ticketTypeId: gold, quantity: 2 }], {
        answers: answersFor(['M']),
      });
      expect(missing.status).toBe(400);
      expect(missing.error?.message).toBe('Gold, ticket 2: T-shirt size: an answer is required');
      const noName = await proceed(cookie, [{ ticketTypeId: gold, quantity: 2 }], {
        answers: answersFor(['M', 'L'], ['Asha Verma']),
      });
      expect(noName.status).toBe(400);
      expect(noName.error?.message).toBe('Gold, ticket 2: attendee name is required');
      expect(await quota()).toEqual([{ capacity: 4, sold: 0, held: 0, left: 4 }]);
      transcript.missing = [missing.status, missing.error?.message, noName.status, noName.error?.message];
    });

    it('buyer A proceeds with answers, the add-on and the code, pays, and gets the server’s total, a QR per attendee and the answers in the orders CSV', async () => {
      const cookie = await buyer('Asha Verma', 'asha@example.in');
      const started = await proceed(cookie, [{ ticketTypeId: gold, quantity: 2 }], {
        answers: answersFor(['M', 'L']),
        addOns: [{ variantId, quantity: 1 }],
        discountCode: 'monsoon10',
      });
      expect(started.status, JSON.stringify(started.error)).toBe(200);
      const session = started.data;
      // Hand-worked, integer paise: 2 × ₹499 = 99,800, 10 % off = 9,980, so the tickets are 89,820;
      // the fee 4 % of that = 3,592.8 → 3,593, its GST 18 % = 646.74 → 647; the tote ₹300 (GST included).
      // 89,820 + 30,000 + 3,593 + 647 = 124,060.
      const amounts = {
        amountPaise: session.amountPaise,
        discountCode: session.discountCode,
        discountPaise: session.discountPaise,
        subtotalPaise: session.subtotalPaise,
        addOnsPaise: session.addOnsPaise,
        feePaise: session.feePaise,
        igstPaise: session.igstPaise,
        admissionTaxPaise: session.admissionTaxPaise,
      };
      expect(amounts).toEqual({
        amountPaise: 124_060,
        discountCode: 'MONSOON10',
        discountPaise: 9_980,
        subtotalPaise: 89_820,
        addOnsPaise: 30_000,
        feePaise: 3_593,
        igstPaise: 647,
        admissionTaxPaise: 0,
      });
      const bookingId = await payAndConfirm(cookie, session.orderId);

      const booking = await site.ok<{
        totalAmountPaise: number;
        addOns: { label: string; totalPaise: number }[];
        bookingQrAdmits: boolean;
        attendeeTickets: { label: string; qrToken: string }[];
      }>('query', 'bookings.byId', { bookingId }, cookie);
      expect(booking.data.totalAmountPaise).toBe(124_060);
      expect(booking.data.addOns.map((a) => [a.label, a.totalPaise])).toEqual([
        ['1 × Festival tote (Indigo)', 30_000],
      ]);
      expect(booking.data.bookingQrAdmits).toBe(false);
      expect(booking.data.attendeeTickets.map((a) => a.label)).toEqual([
        'Ticket 1 of 2 · Asha Verma',
        'Ticket 2 of 2 · Ravi Verma',
      ]);
      // Each attendee's own signed QR, not the booking's.
      expect(booking.data.attendeeTickets.map((a) => a.qrToken)).toEqual(
        [1, 2].map((position) =>
          signAttendeeTicketToken(t.deps.appSecret, bookingId, 0, { ticketTypeId: gold, position }),
        ),
      );

      // The organiser's booking page keeps the answers.
      const page = await site.ok<{
        answers: {
          attendees: { position: number; name: string }[];
          answers: { label: string; position: number; value: string }[];
        };
      }>('query', 'eventBookings.booking', { eventId: ev.eventId, bookingId }, organiser);
      const kept = {
        attendees: page.data.answers.attendees.map((a) => [a.position, a.name]),
        answers: page.data.answers.answers.map((a) => [a.label, a.position, a.value]),
      };
      expect(kept).toEqual({
        attendees: [
          [1, 'Asha Verma'],
          [2, 'Ravi Verma'],
        ],
        answers: [
          ['T-shirt size', 1, 'M'],
          ['T-shirt size', 2, 'L'],
        ],
      });

      // The orders CSV: the booking's money, code, add-on and answers in their columns.
      const csv = await t.request(`/api/organiser/events/${ev.eventId}/orders.csv`, {
        headers: { cookie: organiser },
      });
      expect(csv.status).toBe(200);
      const [header, ...rows] = parseCsv(await csv.text());
      expect(rows).toHaveLength(1);
      const cell = (name: string) => rows[0]![header!.indexOf(name)];
      const inCsv = Object.fromEntries(
        [
          'Booking ID',
          'Status',
          'Ticket type',
          'Quantity',
          'Tickets (INR)',
          'Convenience fee (INR)',
          'GST on fee (INR)',
          'Total paid (INR)',
          'Discount code',
          'Discount (INR)',
          'Add-ons',
          'Add-ons (INR)',
          'Attendee names',
          'T-shirt size',
        ].map((name) => [name, cell(name)]),
      );
      expect(inCsv).toEqual({
        'Booking ID': bookingId,
        Status: 'confirmed',
        'Ticket type': 'Gold',
        Quantity: '2',
        'Tickets (INR)': '898.20',
        'Convenience fee (INR)': '35.93',
        'GST on fee (INR)': '6.47',
        'Total paid (INR)': '1240.60',
        'Discount code': 'MONSOON10',
        'Discount (INR)': '99.80',
        'Add-ons': '1 × Festival tote (Indigo)',
        'Add-ons (INR)': '300.00',
        'Attendee names': '1: Asha Verma; 2: Ravi Verma',
        'T-shirt size': '1: M; 2: L',
      });

      // The gate admits the first attendee by her own QR and names her.
      const scan = await site.ok<{ outcome: string; ticket?: { holderName?: string } }>(
        'mutation',
        'gate.scan',
        {
          eventId: ev.eventId,
          slotId: ev.slotId,
          gate: 'Main gate',
          deviceId: 'device-1',
          scanId: `scan-${engine}-1`,
          token: booking.data.attendeeTickets[0]!.qrToken,
        },
        organiser,
      );
      expect(scan.data).toMatchObject({ outcome: 'admit', ticket: { holderName: 'Asha Verma' } });

      // The gate's offline list carries each attendee's ticket under its own id, named, the scan counted
      // (the phone's last four digits: right() on PostgreSQL, substr() on SQLite);
      // the look-up by the buyer's name shows the attendees.
      const sync = await site.ok<{ tickets: unknown[][] }>(
        'query',
        'gate.sync',
        { eventId: ev.eventId, slotId: ev.slotId },
        organiser,
      );
      const gateList = sync.data.tickets
        .filter((ticket) => String(ticket[0]).startsWith(bookingId))
        .map(([id, ...rest]) => [String(id).replace(bookingId, 'booking').replace(gold, 'gold'), ...rest]);
      // The booking's own row admits nobody (each person has a QR) and carries the tote to hand over.
      expect(gateList).toEqual([
        ['booking', 'Asha Verma', 'Gold', 0, 0, 0, '3210', 0, ['1 × Festival tote (Indigo)']],
        ['booking+gold+1', 'Asha Verma', 'Gold', 1, 1, 0, '3210'],
        ['booking+gold+2', 'Ravi Verma', 'Gold', 1, 0, 0, '3210'],
      ]);
      const lookUp = await site.ok<{ bookingId: string; answers: { attendees: { name: string }[] } }[]>(
        'query',
        'gate.lookUp',
        { eventId: ev.eventId, slotId: ev.slotId, query: 'Asha' },
        organiser,
      );
      expect(lookUp.data.map((b) => [b.bookingId, b.answers.attendees.map((a) => a.name)])).toEqual([
        [bookingId, ['Asha Verma', 'Ravi Verma']],
      ]);

      expect(await quota()).toEqual([{ capacity: 4, sold: 2, held: 0, left: 2 }]);
      expect(await stock()).toEqual([[{ name: 'Indigo', stock: 1, held: 0, sold: 1, left: 0 }]]);
      transcript.buyerA = {
        amounts,
        attendees: booking.data.attendeeTickets.map((a) => a.label),
        kept,
        csv: { ...inCsv, 'Booking ID': 'id' },
        csvHeader: header,
        scan: scan.data.outcome,
        gateList,
      };
    });

    it('buyer B is refused the used-up code and the sold-out add-on, takes the last shared seats, and buyer C hears Sold Out', async () => {
      const cookie = await buyer('Meera Iyer', 'meera@example.in');
      const silverTwo = [{ ticketTypeId: silver, quantity: 2 }];
      const code = await proceed(cookie, silverTwo, { discountCode: 'MONSOON10' });
      expect(code.status).toBe(409);
      expect(code.error?.message).toBe(DISCOUNT_REFUSALS.usedUp);
      const addOn = await proceed(cookie, silverTwo, { addOns: [{ variantId, quantity: 1 }] });
      expect(addOn.status).toBe(409);
      expect(addOn.error?.message).toBe(ADD_ON_MESSAGES.soldOut('Festival tote (Indigo)'));
      // Neither refusal held a seat.
      expect(await quota()).toEqual([{ capacity: 4, sold: 2, held: 0, left: 2 }]);

      const plain = await proceed(cookie, silverTwo);
      expect(plain.status, JSON.stringify(plain.error)).toBe(200);
      // 2 × ₹299 = 59,800; fee 4 % = 2,392; its GST 18 % = 430.56 → 431: 62,623.
      expect(plain.data.amountPaise).toBe(62_623);
      await payAndConfirm(cookie, plain.data.orderId);
      expect(await quota()).toEqual([{ capacity: 4, sold: 4, held: 0, left: 0 }]);

      // Gold has 8 seats of its own left, but the shared capacity is full.
      const late = await buyer('Dev Shah', 'dev@example.in');
      const soldOut = await proceed(late, [{ ticketTypeId: gold, quantity: 1 }], {
        answers: answersFor(['S'], ['Dev Shah']),
      });
      expect(soldOut.status).toBe(409);
      expect(soldOut.error?.message).toBe('Gold: Sold Out');
      const options = await site.ok<{
        dates: { slots: { ticketTypes: { name: string; availableTickets: number }[] }[] }[];
      }>('query', 'tickets.options', { eventId: ev.eventId });
      const left = options.data.dates[0]!.slots[0]!.ticketTypes.map((type) => [
        type.name,
        type.availableTickets,
      ]);
      expect(left).toEqual([
        ['Gold', 0],
        ['Silver', 0],
      ]);
      transcript.refusals = {
        code: [code.status, code.error?.message],
        addOn: [addOn.status, addOn.error?.message],
        plain: plain.data.amountPaise,
        soldOut: [soldOut.status, soldOut.error?.message],
        left,
      };
      transcripts.set(engine, transcript);
    });

    it.runIf(engine === 'postgres' && engines.includes('sqlite'))(
      'answers every step exactly as SQLite did',
      () => {
        // Every step wrote its answers on both engines (a step that stopped early leaves its key out).
        const steps = ['offered', 'form', 'missing', 'buyerA', 'refusals'];
        expect(Object.keys(transcripts.get('sqlite') ?? {}).sort()).toEqual([...steps].sort());
        expect(transcripts.get('postgres')).toEqual(transcripts.get('sqlite'));
      },
    );
  },
);
