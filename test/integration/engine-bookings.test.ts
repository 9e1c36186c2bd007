import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUESTION_MESSAGES, QUESTIONS_PER_TYPE_MAX } from '../../shared/question-schemas.ts';
import { TRANSFER_MESSAGES } from '../../shared/transfer-schemas.ts';
import { appSecretFor } from '../../src-server/app-secret.ts';
import type { Db, DbOrTx } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { runStatements } from '../../src-server/db/engine/reads.ts';
import { rows, type Steps } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { AppDeps } from '../../src-server/deps.ts';
import { lookUpAttendeeTicketsSteps } from '../../src-server/services/attendee-tickets/look-up-attendee-tickets.ts';
import {
  cancelOwnBooking,
  quoteOwnCancellation,
} from '../../src-server/services/bookings/buyer-cancellation.ts';
import { cancelEventBooking } from '../../src-server/services/bookings/cancel-booking.ts';
import { cancelBookingsOfCancelledSlots } from '../../src-server/services/bookings/cancel-bookings-of-cancelled-slots.ts';
import { getEventBooking } from '../../src-server/services/bookings/get-event-booking.ts';
import { getOwnBooking, listOwnBookings } from '../../src-server/services/bookings/owner-bookings.ts';
import {
  RESEND_LIMITED_MESSAGE,
  resendTicketMail,
} from '../../src-server/services/bookings/resend-ticket-mail.ts';
import { slotFormsOfEvent } from '../../src-server/services/questions/checkout-answers.ts';
import { correctAttendeeName } from '../../src-server/services/questions/correct-attendee-name.ts';
import {
  createQuestion,
  listEventQuestions,
  removeQuestion,
  setAttendeeNames,
  updateQuestion,
} from '../../src-server/services/questions/manage-questions.ts';
import { ownAttendees } from '../../src-server/services/questions/own-attendees.ts';
import { acceptTransfer } from '../../src-server/services/transfers/accept-transfer.ts';
import { cancelTransfer } from '../../src-server/services/transfers/cancel-transfer.ts';
import { describeTransfer } from '../../src-server/services/transfers/find-transfer.ts';
import { listSentTransfers } from '../../src-server/services/transfers/list-sent-transfers.ts';
import { startTransfer } from '../../src-server/services/transfers/start-transfer.ts';
import { transferStatusOf } from '../../src-server/services/transfers/transfer-status.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { createAccount, createOwnedEvent } from '../helpers/console-world.ts';
import { DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { createTestApp, type TestApp, testClock } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

// Issue 38: the buyer's and the organiser's booking self-service written once (ADR 0045): My Bookings,
// the organiser's booking page and its history, transfers, attendee names and answers, the ticket mail
// sent again, a buyer's cancellation and the cancelled slot's job. The same functions run on an
// installation the app made on SQLite and, for PostgreSQL, the same installation moved there, where
// every race runs from two pools at once, as two app servers would.

type Person = { userId: string; email: string; name: string; cookie: string };

interface World {
  t: TestApp;
  owner: Person;
  ev: TicketedEvent;
  type: string;
  /** Listed on My Bookings and the booking page; its names corrected, its mail sent again. */
  listed: { bookingId: string; buyer: Person };
  /** Offered to `recipient`, who accepts it 10 times at once. */
  raced: { bookingId: string; buyer: Person };
  /** Each offered to `recipient` and, at once, cancelled by its buyer. */
  contested: { bookingId: string; buyer: Person }[];
  /** A second event's booking, whose slot is cancelled for the job. */
  ofCancelledSlot: { bookingId: string; slotId: string };
  /** That second event, whose ticket type gets its questions from racing editors. */
  other: TicketedEvent;
  recipient: Person;
  questionIds: { size: string; company: string };
}

const serverUrl = testPostgresUrl('engine-bookings.test.ts');
let world: World;
let target: ScratchPostgres | undefined;

beforeAll(async () => {
  world = await buildInstallation();
  if (serverUrl) {
    target = await moveToScratchPostgres(world.t, serverUrl, 'jalsa_bookings');
  }
}, 120_000);

afterAll(async () => {
  await target?.drop({ waitForClosing: true });
  world?.t.close();
});

interface Engine {
  /** The app's deps on the `pool`-th server (two pools on PostgreSQL, one database on SQLite). */
  deps: (pool?: number) => AppDeps;
  close: () => Promise<void>;
}

const engines: [string, () => Promise<Engine>][] = [
  [
    'SQLite',
    async () => {
      const deps = { ...world.t.deps, clock: testClock(world.t.clock.now()) };
      return { deps: () => deps, close: async () => {} };
    },
  ],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const pools: PgDb[] = [
        await openPostgres(target!.url, { poolSize: 8 }),
        await openPostgres(target!.url, { poolSize: 8 }),
      ];
      const clock = testClock(world.t.clock.now());
      const deps = pools.map((pool) => ({ ...world.t.deps, clock, db: pool as unknown as Db }));
      return {
        deps: (pool = 0) => deps[pool % deps.length]!,
        close: async () => {
          for (const pool of pools) await pool.$client.end();
        },
      };
    },
  ]);
}

describe.each(engines)('booking self-service, written once, on %s', (_name, open) => {
  let engine: Engine;
  const db = (pool = 0) => engine.deps(pool).db;
  const now = () => engine.deps().clock.now();
  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  it("lists a buyer's bookings and the organiser's booking page with its history and answers", async () => {
    const { listed } = world;
    const mine = await listOwnBookings(db(), world.t.deps.appSecret, listed.buyer.userId);
    expect(mine.map((b) => b.id)).toEqual([listed.bookingId]);
    expect(mine[0]).toMatchObject({ eventId: world.ev.eventId, ticketCount: 2, status: 'confirmed' });
    const one = await getOwnBooking(db(), world.t.deps.appSecret, listed.buyer.userId, listed.bookingId);
    expect(one.qrToken).toBe(mine[0]!.qrToken);
    // Someone else's booking is not found, as an unknown one.
    await expect(
      (async () => getOwnBooking(db(), world.t.deps.appSecret, world.recipient.userId, listed.bookingId))(),
    ).rejects.toThrow(/Booking not found/);

    const page = await getEventBooking(db(), world.ev.eventId, listed.bookingId);
    expect(page).toMatchObject({
      id: listed.bookingId,
      status: 'confirmed',
      ticketCount: 2,
      usedAtGate: false,
    });
    expect(page.history.map((h) => h.kind)).toEqual(['confirmed']);
    expect(page.checkIns).toMatchObject({ checkedIn: 0, entries: [] });
    expect(page.partRefunds.parts).toEqual([]);
    expect(page.partRefunds.refundableLeft.totalPaise).toBe(page.amounts.totalPaise);
    expect(page.answers.attendees.map((a) => a.name)).toEqual(['Asha Verma', 'Ravi Verma']);
    expect(page.answers.answers.map((a) => `${a.label}=${a.value}`)).toEqual([
      'Company=Tala LLP',
      'T-shirt size=M',
      'T-shirt size=L',
    ]);
    await expect((async () => getEventBooking(db(), 'evt-other', listed.bookingId))()).rejects.toThrow(
      /Booking not found/,
    );
  });

  it("answers its questions: the holder's attendees, and what cancelling would refund", async () => {
    const { listed } = world;
    const attendees = await ownAttendees(db(), listed.buyer.userId, listed.bookingId, now());
    expect(attendees.editable).toBe(true);
    expect(attendees.attendees.map((a) => a.name)).toEqual(['Asha Verma', 'Ravi Verma']);
    const quote = await quoteOwnCancellation(db(), listed.buyer.userId, listed.bookingId, now());
    expect(quote).toMatchObject({ cancellable: true, rescheduled: false });
  });

  it('the organiser asks questions: 25 added at once from two servers stop at the limit, each in its own place', async () => {
    const { other } = world;
    const typeId = other.ticketTypeIds[0]!;
    await setAttendeeNames(db(), other.eventId, typeId, 'optional');
    const outcomes = await Promise.allSettled(
      Array.from({ length: QUESTIONS_PER_TYPE_MAX + 5 }, (_, i) =>
        createQuestion(
          db(i),
          other.eventId,
          typeId,
          { label: `Question ${i}`, kind: 'text', options: [], required: false, scope: 'booking' },
          now(),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(QUESTIONS_PER_TYPE_MAX);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(String(o.reason)).toMatch(QUESTION_MESSAGES.tooManyQuestions);
    }
    const positions = await runStatements(db(), (d) => questionPositions(d, typeId));
    expect(positions).toEqual(Array.from({ length: QUESTIONS_PER_TYPE_MAX }, (_, i) => i));
    // Another event's ticket type answers as not found, on either engine.
    await expect(
      createQuestion(
        db(1),
        world.ev.eventId,
        typeId,
        { label: 'X', kind: 'text', options: [], required: false, scope: 'booking' },
        now(),
      ),
    ).rejects.toThrow(/not found/i);
    const [section] = await listEventQuestions(db(1), other.eventId);
    expect(section).toMatchObject({ ticketTypeId: typeId, attendeeNames: 'optional' });
    expect(section!.questions).toHaveLength(QUESTIONS_PER_TYPE_MAX);
    const removed = section!.questions[0]!;
    const company = {
      label: 'Company',
      kind: 'text' as const,
      options: [],
      required: false,
      scope: 'booking' as const,
    };
    await updateQuestion(db(), other.eventId, section!.questions[1]!.id, company, now());
    await removeQuestion(db(1), other.eventId, removed.id, now());
    // The buyer's checkout form asks what is live now.
    const [form] = await slotFormsOfEvent(db(), other.eventId, other.slotId);
    expect(form!.attendeeNames).toBe('optional');
    expect(form!.questions.map((q) => q.label).slice(0, 1)).toEqual(['Company']);
    expect(form!.questions).toHaveLength(QUESTIONS_PER_TYPE_MAX - 1);
    // Its names and answers at the gate's look-up: the listed booking has no tickets per attendee.
    const looked = await runStatements(db(), (d) =>
      lookUpAttendeeTicketsSteps(d, [
        {
          bookingId: world.listed.bookingId,
          holderName: 'Asha',
          allowed: 2,
          admitted: 0,
          cancelled: false,
          lines: [],
        },
      ]),
    );
    expect(looked.size).toBe(0);
  });

  it("corrects an attendee's name before the cut-off and is refused after it", async () => {
    const { listed } = world;
    const input = {
      bookingId: listed.bookingId,
      ticketTypeId: world.type,
      position: 2,
      name: 'Ravi K Verma',
    };
    expect(await correctAttendeeName(db(), listed.buyer.userId, input, now())).toMatchObject({
      name: 'Ravi K Verma',
    });
    const afterCutOff = new Date(Date.parse(world.ev.slotStart) - 23 * 3_600_000);
    await expect(
      (async () =>
        correctAttendeeName(db(1), listed.buyer.userId, { ...input, name: 'Late Name' }, afterCutOff))(),
    ).rejects.toThrow(QUESTION_MESSAGES.nameCutOffPassed);
    // Another account's correction answers as not found.
    await expect(
      (async () => correctAttendeeName(db(1), world.recipient.userId, input, now()))(),
    ).rejects.toThrow(/Booking not found/);
    const page = await getEventBooking(db(), world.ev.eventId, listed.bookingId);
    expect(page.answers.attendees.map((a) => a.name)).toEqual(['Asha Verma', 'Ravi K Verma']);
    expect(page.history.map((h) => [h.kind, h.details])).toEqual([
      ['confirmed', expect.anything()],
      [
        'attendee_name_corrected',
        { ticketType: 'Gold Circle', position: 2, from: 'Ravi Verma', to: 'Ravi K Verma' },
      ],
    ]);
  });

  it('resends a ticket mail: one outbox row per resend key, and a cap per booking', async () => {
    const { listed } = world;
    const deps = engine.deps();
    const resend = (pool: number) =>
      resendTicketMail(engine.deps(pool), world.ev.eventId, listed.bookingId, world.owner.userId);
    // Two team members' clicks at the same moment, from two servers: one mail.
    const both = await Promise.all([resend(0), resend(1)]);
    expect(both.map((r) => r.sentTo)).toEqual([DETAILS.email, DETAILS.email]);
    expect(await runStatements(db(), (d) => mailKeysLike(d, `booking-resent:${listed.bookingId}:`))).toEqual([
      `booking-resent:${listed.bookingId}:${deps.clock.now().toISOString()}`,
    ]);
    (deps.clock as ReturnType<typeof testClock>).advance(60_000);
    await resend(0);
    expect(
      await runStatements(db(), (d) => mailKeysLike(d, `booking-resent:${listed.bookingId}:`)),
    ).toHaveLength(2);
    // Three asks in the hour were counted: the fourth is refused.
    await expect(resend(1)).rejects.toThrow(RESEND_LIMITED_MESSAGE);
  });

  it('a transfer started and accepted 10 times at once from two servers: it moves exactly once', async () => {
    const { raced, recipient } = world;
    const sender = { id: raced.buyer.userId, name: raced.buyer.name, email: raced.buyer.email };
    const { transferId } = await startTransfer(
      db(),
      sender,
      { bookingId: raced.bookingId, name: 'Meera Iyer', email: recipient.email, mobile: '' },
      now(),
      { base: 'http://localhost:3000' },
    );
    expect(await transferStatusOf(db(1), sender.id, raced.bookingId, now())).toMatchObject({
      state: 'pending',
      toEmail: recipient.email,
    });
    const token = await offerTokenOf(db(), transferId);
    expect(
      await describeTransfer(db(1), token, { id: recipient.userId, email: recipient.email }),
    ).toMatchObject({
      status: 'pending',
      viewerIsRecipient: true,
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        acceptTransfer(db(i), token, { id: recipient.userId, email: recipient.email }, now()),
      ),
    );
    // Accepting twice answers the same booking; whatever lost, nothing moved twice.
    for (const o of outcomes) {
      if (o.status === 'fulfilled') expect(o.value).toEqual({ bookingId: raced.bookingId });
      else expect(String(o.reason)).toMatch(TRANSFER_MESSAGES.linkInvalid);
    }
    expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    const [booking] = await runStatements(db(), (d) => bookingOf(d, raced.bookingId));
    expect(booking).toMatchObject({ userId: recipient.userId, transferCount: 1, paidByUserId: sender.id });
    const history = await runStatements(db(), (d) => historyKinds(d, raced.bookingId));
    expect(history.filter((k) => k === 'transfer_accepted')).toHaveLength(1);
    expect(await runStatements(db(), (d) => mailKeysLike(d, `transfer-accepted:${transferId}`))).toHaveLength(
      1,
    );
    const sent = await listSentTransfers(db(1), sender.id);
    expect(sent.map((s) => [s.bookingId, s.paidBySender])).toEqual([[raced.bookingId, true]]);
    // The sender has nothing pending to cancel any more.
    await expect(
      (async () => cancelTransfer(db(), recipient.userId, raced.bookingId, now()))(),
    ).rejects.toThrow(TRANSFER_MESSAGES.noPending);
  });

  it('an accept racing the buyer cancelling the same booking: one of them, never both', async () => {
    const { recipient } = world;
    for (const [i, contested] of world.contested.entries()) {
      const sender = { id: contested.buyer.userId, name: contested.buyer.name, email: contested.buyer.email };
      const email = `friend${i}-${recipient.email}`;
      const { transferId } = await startTransfer(
        db(),
        sender,
        { bookingId: contested.bookingId, name: 'Meera Iyer', email, mobile: '' },
        now(),
        { base: 'http://localhost:3000' },
      );
      const token = await offerTokenOf(db(), transferId);
      const [accepted, cancelled] = await Promise.allSettled([
        acceptTransfer(db(i), token, { id: recipient.userId, email }, now()),
        cancelOwnBooking(engine.deps(i + 1), sender.id, contested.bookingId),
      ]);
      const [booking] = await runStatements(db(), (d) => bookingOf(d, contested.bookingId));
      const history = await runStatements(db(), (d) => historyKinds(d, contested.bookingId));
      const acceptWon = accepted.status === 'fulfilled';
      const cancelWon = cancelled.status === 'fulfilled' && cancelled.value.cancelled;
      expect(acceptWon !== cancelWon, JSON.stringify({ accepted, cancelled })).toBe(true);
      if (acceptWon) {
        expect(booking).toMatchObject({ status: 'confirmed', userId: recipient.userId, transferCount: 1 });
        expect(history).not.toContain('cancelled');
      } else {
        expect(booking).toMatchObject({ status: 'cancelled', userId: sender.id, transferCount: 0 });
        expect(history).not.toContain('transfer_accepted');
      }
    }
  });

  it('the cancelled slot job cancels its bookings once, also when two servers run it at once', async () => {
    const { ofCancelledSlot } = world;
    await runStatements(db(), (d) => cancelSlot(d, ofCancelledSlot.slotId, now()));
    const counts = await Promise.all([0, 1].map((pool) => cancelBookingsOfCancelledSlots(engine.deps(pool))));
    expect(counts[0]! + counts[1]!).toBe(1);
    const [booking] = await runStatements(db(), (d) => bookingOf(d, ofCancelledSlot.bookingId));
    expect(booking).toMatchObject({ status: 'cancelled', cancelReason: 'slot_cancelled' });
    // The organiser's cancel of a booking already cancelled changes nothing.
    expect(await cancelEventBooking(engine.deps(1), booking!.eventId, booking!.id)).toEqual({
      cancelled: false,
    });
  });
});

/** A SQLite installation made by the app: an organiser's event asking names and questions, five bookings. */
async function buildInstallation(): Promise<World> {
  const t = createTestApp({ SEED_DEMO_DATA: 'false' });
  appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const owner = createAccount(t, 'organiser');
  const ev = createOwnedEvent(t, owner.userId);
  const type = ev.ticketTypeIds[0]!;
  const consoleCall = async (path: string, input: object) => {
    const res = await callProcedure(
      t,
      'mutation',
      `console.${path}`,
      { eventId: ev.eventId, ...input },
      { cookie: owner.cookie },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.data as { id: string };
  };
  await consoleCall('setAttendeeNames', { ticketTypeId: type, mode: 'required' });
  const size = await consoleCall('createQuestion', {
    ticketTypeId: type,
    question: {
      label: 'T-shirt size',
      kind: 'choice',
      options: ['S', 'M', 'L'],
      required: true,
      scope: 'attendee',
    },
  });
  const company = await consoleCall('createQuestion', {
    ticketTypeId: type,
    question: { label: 'Company', kind: 'text', required: false, scope: 'booking' },
  });
  const buy = async (event: TicketedEvent, withAnswers: boolean) => {
    const buyer = createSignedInUser(t);
    const started = await callProcedure(
      t,
      'mutation',
      'payments.start',
      {
        eventId: event.eventId,
        selectedDate: event.dateId,
        selectedSlot: event.slotId,
        selectedTickets: [{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 2 }],
        ticketDetails: DETAILS,
        ...(withAnswers
          ? {
              answers: {
                names: [
                  { ticketTypeId: type, position: 1, name: 'Asha Verma' },
                  { ticketTypeId: type, position: 2, name: 'Ravi Verma' },
                ],
                answers: [
                  { questionId: size.id, position: 1, value: 'M' },
                  { questionId: size.id, position: 2, value: 'L' },
                  { questionId: company.id, position: 0, value: 'Tala LLP' },
                ],
              },
            }
          : {}),
      },
      { cookie: buyer.cookie },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const session = started.data as { orderId: string };
    const confirmed = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
    expect(confirmed.data).toMatchObject({ outcome: 'booked' });
    return { bookingId: (confirmed.data as { bookingId: string }).bookingId, buyer };
  };
  const listed = await buy(ev, true);
  const raced = await buy(ev, true);
  const contested = [];
  for (let i = 0; i < 3; i++) contested.push(await buy(ev, true));
  const other = createOwnedEvent(t, owner.userId, 'Sufi Nights Delhi');
  const ofCancelledSlot = { bookingId: (await buy(other, false)).bookingId, slotId: other.slotId };
  const recipient = createSignedInUser(t, { email: 'meera.friend@example.com', name: 'Meera Iyer' });
  return {
    t,
    owner,
    ev,
    type,
    listed,
    raced,
    contested,
    ofCancelledSlot,
    other,
    recipient,
    questionIds: { size: size.id, company: company.id },
  };
}

function* mailKeysLike(db: DbOrTx, prefix: string): Steps<string[]> {
  const { outbox } = tablesOf(db);
  const keys = yield* rows(
    db
      .select({ key: outbox.idempotencyKey })
      .from(outbox)
      .where(like(outbox.idempotencyKey, `${prefix}%`)),
  );
  return keys.map((k) => k.key).sort();
}

/** The link's token, from the offer mailed to the recipient (the database keeps only its hash). */
async function offerTokenOf(db: DbOrTx, transferId: string): Promise<string> {
  const [mail] = await runStatements(db, function* (d) {
    const { outbox } = tablesOf(d);
    return yield* rows(
      d
        .select({ text: outbox.text })
        .from(outbox)
        .where(eq(outbox.idempotencyKey, `transfer-offer:${transferId}`)),
    );
  });
  const match = /\/transfers\/([\w-]+)/.exec(mail?.text ?? '');
  if (!match) throw new Error('no transfer link mailed');
  return match[1]!;
}

function* bookingOf(db: DbOrTx, bookingId: string) {
  const { bookings } = tablesOf(db);
  return yield* rows(db.select().from(bookings).where(eq(bookings.id, bookingId)));
}

function* historyKinds(db: DbOrTx, bookingId: string): Steps<string[]> {
  const { bookingHistory } = tablesOf(db);
  const kinds = yield* rows(
    db
      .select({ kind: bookingHistory.kind })
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingId, bookingId))
      .orderBy(bookingHistory.seq),
  );
  return kinds.map((k) => k.kind);
}

function* questionPositions(db: DbOrTx, typeId: string): Steps<number[]> {
  const { ticketQuestions } = tablesOf(db);
  const found = yield* rows(
    db
      .select({ position: ticketQuestions.position })
      .from(ticketQuestions)
      .where(eq(ticketQuestions.ticketTypeId, typeId)),
  );
  return found.map((q) => q.position).sort((a, b) => a - b);
}

/** The slot cancelled as the console does it (its bookings are the job's to cancel). */
function* cancelSlot(db: DbOrTx, slotId: string, now: Date): Steps<void> {
  const tables = tablesOf(db);
  yield* rows(
    db
      .update(tables.slots)
      .set({ cancelledAt: now.toISOString() })
      .where(and(eq(tables.slots.id, slotId)))
      .returning({ id: tables.slots.id }),
  );
}
