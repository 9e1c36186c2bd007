import { afterEach, describe, expect, it } from 'vitest';
import { QUESTION_MESSAGES } from '../../shared/question-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { account, ownedEvent, type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import { DETAILS, expectInventoryInvariantOn, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Attendee names and questions (issue 40, ADR 0040) through the real procedures: the console adds a
 * ticket type's questions, Proceed checks the answers on the server and keeps them with the hold,
 * confirmation gives them to the booking, the organiser's booking page, the gate's look-up and the orders
 * CSV show them, and the holder corrects a name until 24 hours before the show.
 */
let t: TestApp;
afterEach(async () => {
  if (t) await expectInventoryInvariantOn(t.deps.db);
  await t?.close();
});

function msg(res: { body: { error?: { message: string } } }) {
  return res.body.error?.message;
}

async function ok(res: { status: number; body: unknown; data?: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.data;
}

async function setUp() {
  t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
  const owner = await account(t, 'organiser');
  const ev = await ownedEvent(t, owner.userId);
  const type = ev.ticketTypeIds[0]!;
  const consoleCall = (path: string, input: object, who: Person = owner) =>
    callProcedure(
      t,
      'mutation',
      `console.${path}`,
      { eventId: ev.eventId, ...input },
      { cookie: who.cookie },
    );
  await ok(await consoleCall('setAttendeeNames', { ticketTypeId: type, mode: 'required' }));
  const size = (await ok(
    await consoleCall('createQuestion', {
      ticketTypeId: type,
      question: {
        label: 'T-shirt size',
        kind: 'choice',
        options: ['S', 'M', 'L'],
        required: true,
        scope: 'attendee',
      },
    }),
  )) as { id: string };
  const company = (await ok(
    await consoleCall('createQuestion', {
      ticketTypeId: type,
      question: { label: 'Company', kind: 'text', required: false, scope: 'booking' },
    }),
  )) as { id: string };
  const veg = (await ok(
    await consoleCall('createQuestion', {
      ticketTypeId: type,
      question: { label: 'Vegetarian meal', kind: 'yes_no', required: true, scope: 'booking' },
    }),
  )) as { id: string };
  return { owner, ev, type, console: consoleCall, q: { size: size.id, company: company.id, veg: veg.id } };
}

type World = Awaited<ReturnType<typeof setUp>>;

function goodAnswers(w: World) {
  return {
    names: [
      { ticketTypeId: w.type, position: 1, name: 'Asha Verma' },
      { ticketTypeId: w.type, position: 2, name: 'Ravi Verma' },
    ],
    answers: [
      { questionId: w.q.size, position: 1, value: 'M' },
      { questionId: w.q.size, position: 2, value: 'L' },
      { questionId: w.q.company, position: 0, value: 'Tala LLP' },
      { questionId: w.q.veg, position: 0, value: 'Yes' },
    ],
  };
}

function start(ev: TicketedEvent, cookie: string, answers: unknown, quantity = 2) {
  return callProcedure(
    t,
    'mutation',
    'payments.start',
    {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity }],
      ticketDetails: DETAILS,
      answers,
    },
    { cookie },
  );
}

async function buy(w: World, cookie: string) {
  const session = (await ok(await start(w.ev, cookie, goodAnswers(w)))) as CheckoutSession;
  const confirmed = await confirm(t, cookie, await payWithSimulator(t, session.orderId));
  return (confirmed.data as { bookingId: string }).bookingId;
}

describe('checkout answers, checked on the server', () => {
  it('refuses a missing required answer, a choice not offered and a 50,000-character answer, holding nothing', async () => {
    const w = await setUp();
    const buyer = await signedInUser(t);
    const form = (await ok(
      await callProcedure(t, 'query', 'questions.checkoutForm', {
        eventId: w.ev.eventId,
        slotId: w.ev.slotId,
      }),
    )) as { attendeeNames: string; questions: { label: string }[] }[];
    expect(form).toMatchObject([
      { attendeeNames: 'required', questions: [{ label: 'T-shirt size' }, {}, {}] },
    ]);

    const missing = goodAnswers(w);
    missing.answers = missing.answers.filter((a) => !(a.questionId === w.q.size && a.position === 2));
    const refused = await start(w.ev, buyer.cookie, missing);
    expect(refused.status).toBe(400);
    expect(msg(refused)).toBe('Gold Circle, ticket 2: T-shirt size: an answer is required');

    const noName = goodAnswers(w);
    noName.names = noName.names.slice(0, 1);
    expect(msg(await start(w.ev, buyer.cookie, noName))).toBe(
      'Gold Circle, ticket 2: attendee name is required',
    );
    const shortName = goodAnswers(w);
    shortName.names[0]!.name = 'A';
    expect(msg(await start(w.ev, buyer.cookie, shortName))).toBe(
      `Gold Circle, ticket 1: ${QUESTION_MESSAGES.nameTooShort}`,
    );

    const badChoice = goodAnswers(w);
    badChoice.answers[0]!.value = 'XXL';
    const bad = await start(w.ev, buyer.cookie, badChoice);
    expect(bad.status).toBe(400);
    expect(msg(bad)).toBe('Gold Circle, ticket 1: T-shirt size: choose one of the options');

    const badYesNo = goodAnswers(w);
    badYesNo.answers[3]!.value = 'maybe';
    expect((await start(w.ev, buyer.cookie, badYesNo)).status).toBe(400);

    const huge = goodAnswers(w);
    huge.answers[2]!.value = 'x'.repeat(50_000);
    const tooLong = await start(w.ev, buyer.cookie, huge);
    expect(tooLong.status).toBe(400);
    expect(msg(tooLong)).toContain('at most 200 characters');
    const long = goodAnswers(w);
    long.answers[2]!.value = 'x'.repeat(201);
    expect(msg(await start(w.ev, buyer.cookie, long))).toBe('Gold Circle: Company: at most 200 characters');
    // Nothing was held by any refused Proceed.
    expect(await t.deps.db.select().from(tablesOf(t.deps.db).holds)).toEqual([]);
  });

  it('keeps the answers with the booking; its owner sees them, another organiser gets NOT_FOUND', async () => {
    const w = await setUp();
    const buyer = await signedInUser(t);
    const bookingId = await buy(w, buyer.cookie);
    const page = (await ok(
      await callProcedure(
        t,
        'query',
        'eventBookings.booking',
        { eventId: w.ev.eventId, bookingId },
        { cookie: w.owner.cookie },
      ),
    )) as { answers: { attendees: unknown[]; answers: unknown[] } };
    expect(page.answers.attendees).toEqual([
      expect.objectContaining({ position: 1, name: 'Asha Verma' }),
      expect.objectContaining({ position: 2, name: 'Ravi Verma' }),
    ]);
    expect(page.answers.answers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: 'T-shirt size', position: 1, value: 'M' }),
        expect.objectContaining({ label: 'T-shirt size', position: 2, value: 'L' }),
        expect.objectContaining({ label: 'Company', position: 0, value: 'Tala LLP' }),
        expect.objectContaining({ label: 'Vegetarian meal', position: 0, value: 'Yes' }),
      ]),
    );

    const other = await account(t, 'organiser');
    const theirs = await callProcedure(
      t,
      'query',
      'eventBookings.booking',
      { eventId: w.ev.eventId, bookingId },
      { cookie: other.cookie },
    );
    expect(theirs.status).toBe(404);
    const edit = await w.console(
      'createQuestion',
      {
        ticketTypeId: w.type,
        question: { label: 'Sneaky', kind: 'text', required: false, scope: 'booking' },
      },
      other,
    );
    expect(edit.status).toBe(404);

    const lookUp = (await ok(
      await callProcedure(
        t,
        'query',
        'gate.lookUp',
        { eventId: w.ev.eventId, slotId: w.ev.slotId, query: DETAILS.name },
        { cookie: w.owner.cookie },
      ),
    )) as {
      answers: {
        attendees: { name: string }[];
        answers: { label: string; position: number; value: string }[];
      };
    }[];
    expect(lookUp[0]!.answers.attendees.map((a) => a.name)).toEqual(['Asha Verma', 'Ravi Verma']);
    // The gate sees the answers too (issue 40), as goodAnswers gave them: the booking's own first
    // (position 0: Company, then Vegetarian meal, in the order the questions were added), then each
    // ticket's T-shirt size (ticket 1 M, ticket 2 L), so staff can hand the right one to each person.
    expect(
      lookUp[0]!.answers.answers.map(({ label, position, value }) => ({ label, position, value })),
    ).toEqual([
      { label: 'Company', position: 0, value: 'Tala LLP' },
      { label: 'Vegetarian meal', position: 0, value: 'Yes' },
      { label: 'T-shirt size', position: 1, value: 'M' },
      { label: 'T-shirt size', position: 2, value: 'L' },
    ]);
  });

  it('puts one column per question and the attendee names in the orders CSV', async () => {
    const w = await setUp();
    const buyer = await signedInUser(t);
    await buy(w, buyer.cookie);
    const csv = await (
      await t.request(`/api/organiser/events/${w.ev.eventId}/orders.csv`, {
        headers: { cookie: w.owner.cookie },
      })
    ).text();
    const [header, row] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header!.endsWith('Attendee names,T-shirt size,Company,Vegetarian meal')).toBe(true);
    expect(row!.endsWith('"1: Asha Verma; 2: Ravi Verma","1: M; 2: L",Tala LLP,Yes')).toBe(true);
  });
});

describe('copying ticket types to other slots', () => {
  it('copies their name setting and live questions with them', async () => {
    const w = await setUp();
    await ok(await w.console('removeQuestion', { questionId: w.q.company }));
    const call = async (path: string, input: object) =>
      (await ok(
        await callProcedure(
          t,
          'mutation',
          `organiser.${path}`,
          { eventId: w.ev.eventId, ...input },
          { cookie: w.owner.cookie },
        ),
      )) as { version: number; slotId: string };
    const editable = (await ok(
      await callProcedure(
        t,
        'query',
        'organiser.editableEvent',
        { eventId: w.ev.eventId },
        { cookie: w.owner.cookie },
      ),
    )) as { version: number };
    const added = await call('addSlot', {
      version: editable.version,
      dateId: w.ev.dateId,
      startTime: '10:00',
      endTime: '12:00',
    });
    await call('copyTicketTypesToAllSlots', { version: added.version, fromSlotId: w.ev.slotId });
    const form = (await ok(
      await callProcedure(t, 'query', 'questions.checkoutForm', {
        eventId: w.ev.eventId,
        slotId: added.slotId,
      }),
    )) as { ticketTypeId: string; attendeeNames: string; questions: { label: string }[] }[];
    expect(form).toHaveLength(1);
    expect(form[0]!.ticketTypeId).not.toBe(w.type);
    expect(form[0]).toMatchObject({
      attendeeNames: 'required',
      questions: [{ label: 'T-shirt size' }, { label: 'Vegetarian meal' }],
    });
  });
});

describe('correcting an attendee name', () => {
  it('works until 24 hours before the show, is recorded in the history, and is refused after', async () => {
    const w = await setUp();
    const buyer = await signedInUser(t);
    const bookingId = await buy(w, buyer.cookie);
    const correct = (name: string, who = buyer.cookie) =>
      callProcedure(
        t,
        'mutation',
        'questions.correctAttendeeName',
        { bookingId, ticketTypeId: w.type, position: 2, name },
        { cookie: who },
      );
    const stranger = await signedInUser(t);
    expect((await correct('Someone Else', stranger.cookie)).status).toBe(404);
    expect(msg(await correct('R'))).toBe(QUESTION_MESSAGES.nameTooShort);
    await ok(await correct('Ravi Kumar'));

    const page = (await ok(
      await callProcedure(
        t,
        'query',
        'eventBookings.booking',
        { eventId: w.ev.eventId, bookingId },
        { cookie: w.owner.cookie },
      ),
    )) as { answers: { attendees: { name: string }[] }; history: { kind: string; details: object }[] };
    expect(page.answers.attendees.map((a) => a.name)).toEqual(['Asha Verma', 'Ravi Kumar']);
    expect(page.history.at(-1)).toMatchObject({
      kind: 'attendee_name_corrected',
      actor: 'buyer',
      details: { position: 2, from: 'Ravi Verma', to: 'Ravi Kumar' },
    });

    // The show starts 14 days after the test clock's start (fixtureShow): move to 23 hours before it.
    t.clock.set(new Date(Date.parse(w.ev.slotStart) - 23 * 60 * 60 * 1000));
    const late = await correct('Ravi K');
    expect(late.status).toBe(409);
    expect(msg(late)).toBe(QUESTION_MESSAGES.nameCutOffPassed);
  });
});
