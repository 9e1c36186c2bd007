import { and, asc, count, eq, isNotNull } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ADMISSION_PASS_MS,
  QUEUE_TOKEN_HEADER,
  WAITING_ROOM_MESSAGES,
  type WaitingRoomStatus,
} from '../../shared/waiting-room.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { changes, rows } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { admitDueVisitors } from '../../src-server/services/waiting-room/admit-visitors.ts';
import { drawSteps } from '../../src-server/services/waiting-room/draw.ts';
import { signAdmissionPass } from '../../src-server/services/waiting-room/tokens.ts';
import { proceed, startInput } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import {
  createTicketedEventOn,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const MINUTE = 60_000;

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const { ticketTypes, waitingRooms, waitingRoomVisitors } = tablesFor(testEngine());

/** An event whose waiting room opens `inMs` from the test clock's now, admitting `rate` a minute. */
async function roomEvent(
  inMs = 10 * MINUTE,
  rate: number | null = 60,
): Promise<TicketedEvent & { opensAt: Date }> {
  const ev = await createTicketedEventOn(t.deps.db);
  const opensAt = new Date(t.clock.now().getTime() + inMs);
  await t.deps.db.insert(waitingRooms).values({
    eventId: ev.eventId,
    enabled: true,
    opensAt: opensAt.toISOString(),
    admitPerMinute: rate,
    updatedAt: t.clock.now().toISOString(),
  });
  return { ...ev, opensAt };
}

/** `n` signed-in buyers, made one after another. */
async function newBuyers(n: number) {
  const made = [];
  for (let i = 0; i < n; i++) made.push(await signedInUser(t));
  return made;
}

/** The room's visitors in arrival order (their ids), with their places. */
function placesOf(eventId: string): Promise<{ id: number; position: number | null }[]> {
  return t.deps.db
    .select({ id: waitingRoomVisitors.id, position: waitingRoomVisitors.position })
    .from(waitingRoomVisitors)
    .where(eq(waitingRoomVisitors.eventId, eventId))
    .orderBy(asc(waitingRoomVisitors.id));
}

async function join(cookie: string, eventId: string): Promise<string> {
  const res = await callProcedure(t, 'mutation', 'waitingRoom.join', { eventId }, { cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.data as { token: string }).token;
}

async function status(eventId: string, token?: string): Promise<WaitingRoomStatus> {
  const res = await t.request(`/api/waiting-room/${eventId}`, {
    headers: token ? { [QUEUE_TOKEN_HEADER]: token } : {},
  });
  expect(res.status).toBe(200);
  return (await res.json()) as WaitingRoomStatus;
}

/** The status cache ages by the app's clock: a second later it reads the room again. */
function tick(ms = 1_001) {
  t.clock.advance(ms);
}

describe('joining', () => {
  it('gives one place per account: a second tab gets the same token and place', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent();
    const buyer = await signedInUser(t);
    const first = await join(buyer.cookie, ev.eventId);
    const second = await join(buyer.cookie, ev.eventId);
    expect(second).toBe(first);
    const [visitors] = await t.deps.db.select({ n: count() }).from(waitingRoomVisitors);
    expect(visitors?.n).toBe(1);
  });

  it('needs a session to join, and refuses an event without a waiting room', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent();
    const signedOut = await callProcedure(t, 'mutation', 'waitingRoom.join', { eventId: ev.eventId });
    expect(signedOut.status).toBe(401);
    const plain = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const refused = await callProcedure(
      t,
      'mutation',
      'waitingRoom.join',
      { eventId: plain.eventId },
      {
        cookie: buyer.cookie,
      },
    );
    expect(refused.status).toBe(404);
    expect(refused.body.error?.message).toBe(WAITING_ROOM_MESSAGES.notWaitingRoom);
  });
});

describe('the draw at opening and arrival order after it', () => {
  it('shuffles the early arrivals once, then places later arrivals in arrival order', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent(MINUTE, 1);
    const early = await newBuyers(30);
    for (const buyer of early) await join(buyer.cookie, ev.eventId);
    const placeOf = () => placesOf(ev.eventId);
    expect((await placeOf()).every((v) => v.position === null)).toBe(true);

    t.clock.set(ev.opensAt);
    await admitDueVisitors(t.deps);
    const drawn = await placeOf();
    expect(drawn.map((v) => v.position).sort((a, b) => a! - b!)).toEqual(early.map((_, i) => i + 1));
    // 30 arrivals kept in arrival order by a broken shuffle: 1 chance in 30! that a fair one does it.
    expect(drawn.map((v) => v.position)).not.toEqual(early.map((_, i) => i + 1));

    // Drawn once: a second tick (or a join) does not draw again.
    t.clock.advance(1_000);
    expect(await writeDraw(ev.eventId)).toBe(false);
    await admitDueVisitors(t.deps);
    expect((await placeOf()).slice(0, 30)).toEqual(drawn);

    const late = [await signedInUser(t), await signedInUser(t), await signedInUser(t)];
    for (const buyer of late) await join(buyer.cookie, ev.eventId);
    expect((await placeOf()).slice(30).map((v) => v.position)).toEqual([31, 32, 33]);
  });

  it('lets the first join after opening draw when the admitter has not yet', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent(MINUTE);
    const a = await signedInUser(t);
    await join(a.cookie, ev.eventId);
    t.clock.set(new Date(ev.opensAt.getTime() + 10));
    const b = await signedInUser(t);
    await join(b.cookie, ev.eventId);
    expect((await placesOf(ev.eventId)).map((v) => v.position)).toEqual([1, 2]);
    const [room] = await t.deps.db.select({ drawnAt: waitingRooms.drawnAt }).from(waitingRooms);
    expect(room?.drawnAt).not.toBeNull();
  });

  // SQLite only: 2 000 draws are ~14 000 statements, over 20 s of round trips on PostgreSQL (measured,
  // even 250 draws to a transaction) against its 15 s budget. What it proves does not depend on the
  // engine: the shuffle is the same JavaScript on both (proved exact in draw.test.ts); PostgreSQL's own
  // placing statement is proved by the draw above (30 places, each once, not in arrival order).
  it.runIf(testEngine() === 'sqlite')(
    'draws a uniform shuffle: each of 5 arrivals lands in each place about equally often',
    async () => {
      t = await createTestAppOn(testEngine());
      const ev = await roomEvent(MINUTE);
      const five = await newBuyers(5);
      await t.deps.db.insert(waitingRoomVisitors).values(
        five.map((b) => ({
          eventId: ev.eventId,
          userId: b.userId,
          arrivedAt: t.clock.now().toISOString(),
        })),
      );
      t.clock.set(ev.opensAt);
      const draws = 2_000;
      // counts[arrival][position]
      const counts = five.map(() => [0, 0, 0, 0, 0]);
      const now = t.clock.now();
      for (let i = 0; i < draws; i++) {
        // Undraw the room, draw again, read the places.
        const positions = await runnerFor(t.deps.db).write(function* (tx) {
          const { waitingRooms: rooms, waitingRoomVisitors: visitors } = tablesOf(tx);
          yield* changes(tx.update(visitors).set({ position: null }));
          yield* changes(tx.update(rooms).set({ drawnAt: null }));
          yield* drawSteps(tx, ev.eventId, now);
          return yield* rows(
            tx
              .select({ position: visitors.position })
              .from(visitors)
              .where(eq(visitors.eventId, ev.eventId))
              .orderBy(asc(visitors.id)),
          );
        });
        positions.forEach(({ position: p }, arrival) => {
          counts[arrival]![p! - 1]! += 1;
        });
      }
      // Pearson's statistic over the 25 cells, times 4/5: each draw is a permutation (one arrival per
      // place), not 5 independent picks, so a cell's variance is draws·(1/5)(4/5) and the raw sum is
      // about 5/4 × χ²(16) (mean 20, not 16). The bound is χ²(16)'s one-in-ten-million value: at the
      // 0.1 % value (39.3) a fair shuffle failed a CI run (42.6, simulated rate 1 in 1,000). A biased
      // draw (a sort by random comparator, the identity order) still lands in the hundreds. Whether the
      // shuffle itself is exactly uniform is proved without chance in draw.test.ts.
      const expected = draws / 5;
      const pearson = counts.flat().reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
      expect((pearson * 4) / 5).toBeLessThan(65);
    },
  );
});

function writeDraw(eventId: string) {
  return runnerFor(t.deps.db).write((tx) => drawSteps(tx, eventId, t.clock.now()));
}

describe('status checks', () => {
  it('answers the public state without a token, and the place with one; a forged token counts as none', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent(10 * MINUTE, 60);
    const pub = await status(ev.eventId);
    expect(pub).toMatchObject({
      enabled: true,
      open: false,
      soldOut: false,
      opensAt: ev.opensAt.toISOString(),
    });
    expect(pub.visitor).toBeUndefined();

    const buyer = await signedInUser(t);
    const token = await join(buyer.cookie, ev.eventId);
    const waiting = await status(ev.eventId, token);
    expect(waiting.visitor).toMatchObject({ position: null, admitted: false, pass: null });
    // Ten minutes before opening: ask again in a few minutes, not every two seconds.
    expect(waiting.nextCheckMs).toBeGreaterThan(MINUTE);

    const [body, mac] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ e: ev.eventId, v: 1, u: 'someone-else' })).toString('base64url')}.${mac}`;
    expect((await status(ev.eventId, forged)).visitor).toBeUndefined();
    expect((await status(ev.eventId, `${body}.${mac}x`)).visitor).toBeUndefined();
    const other = await roomEvent();
    expect((await status(other.eventId, token)).visitor).toBeUndefined();
  });

  it('backs off with distance from the head, and issues the pass once admitted', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent(MINUTE, 1);
    const buyers = await newBuyers(8);
    const tokens: string[] = [];
    for (const b of buyers) tokens.push(await join(b.cookie, ev.eventId));
    t.clock.set(ev.opensAt);
    await admitDueVisitors(t.deps);
    tick();
    const all = await Promise.all(tokens.map(async (tok) => ({ tok, ...(await status(ev.eventId, tok)) })));
    const byPosition = [...all].sort((a, b) => a.visitor!.position! - b.visitor!.position!);
    // Rate 1 a minute: the first is admitted a minute after opening; the 8th waits ≈ 8 minutes.
    expect(byPosition[0]!.visitor).toMatchObject({
      position: 1,
      ahead: 0,
      admitted: false,
      estimatedWaitMinutes: 1,
    });
    expect(byPosition[7]!.visitor).toMatchObject({ position: 8, ahead: 7, estimatedWaitMinutes: 8 });
    expect(byPosition[0]!.nextCheckMs).toBeLessThanOrEqual(2_400);
    expect(byPosition[7]!.nextCheckMs).toBeGreaterThan(20_000);

    t.clock.advance(MINUTE);
    await admitDueVisitors(t.deps);
    tick();
    const head = await status(ev.eventId, byPosition[0]!.tok);
    expect(head.visitor?.admitted).toBe(true);
    expect(head.visitor?.pass).toEqual(expect.any(String));
    // The second is not admitted yet, and is now at the head.
    const next = await status(ev.eventId, byPosition[1]!.tok);
    expect(next.visitor).toMatchObject({ admitted: false, ahead: 0, pass: null });
  });

  it('says at once when every ticket type is sold out', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent();
    await t.deps.db.update(ticketTypes).set({ availableTickets: 0 });
    tick();
    expect((await status(ev.eventId)).soldOut).toBe(true);
  });
});

describe('admission at the configured rate', () => {
  it('admits one place per 60/rate seconds from opening, and banks nothing while the queue is empty', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent(MINUTE, 6); // one every 10 s
    const buyers = await newBuyers(5);
    for (const b of buyers) await join(b.cookie, ev.eventId);
    const through = async () => (await t.deps.db.select().from(waitingRooms))[0]?.admittedThrough;
    t.clock.set(ev.opensAt);
    await admitDueVisitors(t.deps);
    expect(await through()).toBe(0);
    t.clock.advance(10_000);
    await admitDueVisitors(t.deps);
    expect(await through()).toBe(1);
    t.clock.advance(25_000);
    await admitDueVisitors(t.deps);
    expect(await through()).toBe(3);
    t.clock.advance(5_000);
    await admitDueVisitors(t.deps);
    expect(await through()).toBe(4);
    t.clock.advance(10 * MINUTE);
    await admitDueVisitors(t.deps);
    expect(await through()).toBe(5);
    const [admitted] = await t.deps.db
      .select({ n: count() })
      .from(waitingRoomVisitors)
      .where(and(eq(waitingRoomVisitors.eventId, ev.eventId), isNotNull(waitingRoomVisitors.admittedAt)));
    expect(admitted?.n).toBe(5);
    // Ten empty minutes banked nothing: a newcomer waits the usual 10 s, not zero.
    const late = await signedInUser(t);
    await join(late.cookie, ev.eventId);
    t.clock.advance(2_000);
    await admitDueVisitors(t.deps);
    expect(await through()).toBe(5);
    t.clock.advance(9_000);
    await admitDueVisitors(t.deps);
    expect(await through()).toBe(6);
  });
});

describe('Proceed on a waiting-room event', () => {
  it('is refused before opening, and without a valid pass after it; accepted with one', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent(MINUTE, 60);
    const buyer = await signedInUser(t);
    const other = await signedInUser(t);
    const token = await join(buyer.cookie, ev.eventId);

    const early = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), {
      cookie: buyer.cookie,
    });
    expect(early.status).toBe(409);
    expect(early.body.error?.message).toBe(WAITING_ROOM_MESSAGES.notOpenYet);

    t.clock.set(ev.opensAt);
    const noPass = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), {
      cookie: buyer.cookie,
    });
    expect(noPass.status).toBe(403);
    expect(noPass.body.error?.message).toBe(WAITING_ROOM_MESSAGES.passRequired);

    t.clock.advance(MINUTE);
    await admitDueVisitors(t.deps);
    tick();
    const admitted = await status(ev.eventId, token);
    const pass = admitted.visitor?.pass ?? '';
    expect(pass).not.toBe('');

    const refusedFor = async (cookie: string, admissionPass: string) => {
      const res = await callProcedure(
        t,
        'mutation',
        'payments.start',
        { ...startInput(ev, 1), admissionPass },
        { cookie },
      );
      return res.status === 403 && res.body.error?.message === WAITING_ROOM_MESSAGES.passRequired;
    };
    // Someone else's pass, a tampered one, one for another event, an expired one: refused.
    expect(await refusedFor(other.cookie, pass)).toBe(true);
    // A character of the signature changed (one well inside it: the last carries padding bits, and a
    // fixed replacement could equal the original).
    const at = pass.length - 10;
    const tampered = `${pass.slice(0, at)}${pass[at] === 'A' ? 'B' : 'A'}${pass.slice(at + 1)}`;
    expect(await refusedFor(buyer.cookie, tampered)).toBe(true);
    const otherEvent = signAdmissionPass(t.deps.appSecret, {
      eventId: 'evt-other',
      userId: buyer.userId,
      expiresAt: t.clock.now().getTime() + MINUTE,
    });
    expect(await refusedFor(buyer.cookie, otherEvent)).toBe(true);
    const wrongSecret = signAdmissionPass('not-the-app-secret', {
      eventId: ev.eventId,
      userId: buyer.userId,
      expiresAt: t.clock.now().getTime() + MINUTE,
    });
    expect(await refusedFor(buyer.cookie, wrongSecret)).toBe(true);
    t.clock.advance(ADMISSION_PASS_MS + 1);
    expect(await refusedFor(buyer.cookie, pass)).toBe(true);

    // A fresh pass from a status check (the visitor stays admitted) lets the buyer hold seats.
    tick();
    const renewed = (await status(ev.eventId, token)).visitor?.pass ?? '';
    await proceed(t, buyer.cookie, ev, 1, { admissionPass: renewed });
    await expectInventoryInvariantOn(t.deps.db);
  });

  it('needs no pass once the organiser switches the room off', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await roomEvent(MINUTE);
    const buyer = await signedInUser(t);
    await t.deps.db.update(waitingRooms).set({ enabled: false });
    await proceed(t, buyer.cookie, ev, 1);
  });
});
