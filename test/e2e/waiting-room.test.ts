import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WAITING_ROOM_MESSAGES } from '../../shared/waiting-room.ts';
import { waitingRooms } from '../../src-server/db/schema/on-sale.ts';
import {
  DESKTOP,
  expectNoSeriousA11yViolations,
  type Page,
  PHONE_390,
  saveScreenshot,
} from '../helpers/browser.ts';
import { payAndConfirm, startThroughApi, useE2eContexts, useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';

/** One place every 2 s: slow enough to see the order, quick enough for a short test. */
const RATE_PER_MINUTE = 30;

/**
 * Issue 19's waiting room in Chromium, on the shared e2e server (real clock, admitter job every
 * second): three buyers wait before the on-sale time, opening draws their places and admits them one
 * by one at the configured rate, an admitted buyer books with the pass, and a buyer without one cannot
 * Proceed through the API.
 */
describe('the waiting room, in Chromium', () => {
  const world = useE2eWorld();
  const { baseURL, open, openSignedIn } = useE2eContexts(world);

  it('three buyers wait, get shuffled places at opening, are admitted at the rate, and one books', async () => {
    const ev = createTicketedEvent(world.database.db, {
      name: `Arijit Live ${randomUUID().slice(0, 6)}`,
      now: new Date(),
    });
    // The on-sale time is set for real once the three pages are up (a loaded machine takes a while).
    world.database.db
      .insert(waitingRooms)
      .values({
        eventId: ev.eventId,
        enabled: true,
        opensAt: new Date(Date.now() + 3_600_000).toISOString(),
        admitPerMinute: RATE_PER_MINUTE,
        updatedAt: new Date().toISOString(),
      })
      .run();

    const buyers: { page: Page; userId: string; email: string }[] = [];
    for (const viewport of [PHONE_390, DESKTOP, PHONE_390]) {
      const { page, userId, email } = await openSignedIn(viewport);
      // Ticket selection sends a buyer without a pass to the waiting room.
      await page.goto(`/select-tickets/${ev.eventId}`);
      await page.waitForURL(`**/events/${ev.eventId}/waiting-room`);
      await page.getByText('You’re in.').waitFor();
      buyers.push({ page, userId, email });
    }
    const opensAt = new Date(Date.now() + 8_000);
    world.database.sqlite
      .prepare('update waiting_rooms set opens_at = ? where event_id = ?')
      .run(opensAt.toISOString(), ev.eventId);
    // Before opening, Proceed is refused even for someone in the room.
    const early = await startThroughApi(buyers[0]!.page, baseURL, ev, buyers[0]!.email);
    expect(early.status).toBe(409);
    await buyers[0]!.page.waitForTimeout(1_100); // the status checks' copy of the room is at most 1 s old
    // A reload keeps the place (the queue token is in localStorage): still one row per buyer.
    for (const b of buyers) {
      await b.page.reload();
      await b.page.getByText('You’re in.').waitFor();
    }
    expect(
      world.database.sqlite
        .prepare('select count(*) from waiting_room_visitors where event_id = ?')
        .pluck()
        .get(ev.eventId),
    ).toBe(3);
    await expect(buyers[0]!.page.getByTestId('countdown').textContent()).resolves.toMatch(/^\d\d:\d\d$/);
    await saveScreenshot(buyers[0]!.page, `waiting-room-countdown-phone.png`, { fullPage: true });
    await expectNoSeriousA11yViolations(buyers[1]!.page);

    // A signed-out visitor sees the countdown and the way to take a place.
    const anonymous = await open(PHONE_390);
    const anon = await anonymous.context.newPage();
    await anon.goto(`/events/${ev.eventId}/waiting-room`);
    await anon.getByRole('link', { name: 'Sign in to take your place' }).waitFor();

    // Opening: every page shows a place, then each is admitted in turn.
    const admittedAt = new Map<string, number>();
    const deadline = Date.now() + 90_000;
    while (admittedAt.size < 3 && Date.now() < deadline) {
      for (const b of buyers) {
        if (admittedAt.has(b.userId)) continue;
        if (await b.page.getByText('It’s your turn!').isVisible()) admittedAt.set(b.userId, Date.now());
      }
      await buyers[0]!.page.waitForTimeout(250);
    }
    expect(admittedAt.size).toBe(3);

    const rows = world.database.sqlite
      .prepare(
        `select user_id as userId, position, arrived_at as arrivedAt, admitted_at as admittedAt
         from waiting_room_visitors where event_id = ? order by position`,
      )
      .all(ev.eventId) as { userId: string; position: number; arrivedAt: string; admittedAt: string }[];
    // All three arrived before opening, so their places are a draw: a permutation of 1..3.
    expect(rows.map((r) => r.position)).toEqual([1, 2, 3]);
    expect(rows.every((r) => Date.parse(r.arrivedAt) < opensAt.getTime())).toBe(true);
    // Admitted in place order, one per 60/rate s from opening (the admitter ticks every second).
    const times = rows.map((r) => Date.parse(r.admittedAt));
    expect(times[0]! - opensAt.getTime()).toBeGreaterThanOrEqual(2_000 - 50);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1_000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1_000);
    expect(times[2]! - opensAt.getTime()).toBeGreaterThanOrEqual(6_000 - 50);

    // The first admitted buyer chooses tickets (no redirect now) and books with the pass.
    const first = buyers.find((b) => b.userId === rows[0]!.userId)!;
    await saveScreenshot(first.page, `waiting-room-admitted-phone.png`, { fullPage: true });
    await first.page.getByRole('link', { name: 'Choose tickets' }).click();
    await first.page.waitForURL(`**/select-tickets/${ev.eventId}`);
    await first.page.getByRole('button', { name: 'Select Ticket: Gold Circle' }).waitFor();
    const pass = await first.page.evaluate(
      (key) => (JSON.parse(localStorage.getItem(key) ?? '{}') as { value?: string }).value ?? '',
      `jalsa.waitingRoom.pass.${ev.eventId}`,
    );
    expect(pass).not.toBe('');
    const booked = await startThroughApi(first.page, baseURL, ev, first.email, { admissionPass: pass });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const bookingId = await payAndConfirm(first.page, baseURL, booked.body.result.data.orderId);
    expect(bookingId).toMatch(/.+/);

    // Someone who never waited cannot Proceed through the API, and another buyer's pass does not help.
    const out = await openSignedIn(DESKTOP);
    const outPage = out.page;
    await outPage.goto('/');
    const refused = await startThroughApi(outPage, baseURL, ev, out.email);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(WAITING_ROOM_MESSAGES.passRequired);
    const borrowed = await startThroughApi(outPage, baseURL, ev, out.email, { admissionPass: pass });
    expect(borrowed.status).toBe(403);

    // A checkout link opened without a pass: Proceed says why, with the way to the waiting room.
    const lines = JSON.stringify([{ ticketTypeId: ev.ticketTypeIds[0], quantity: 1 }]);
    await outPage.goto(
      `/checkout-tickets?eventId=${ev.eventId}&selectedDate=${ev.dateId}&selectedSlot=${ev.slotId}` +
        `&selectedTickets=${encodeURIComponent(lines)}`,
    );
    await outPage.getByRole('heading', { name: 'Payment Summary' }).waitFor();
    await outPage.getByRole('button', { name: 'Proceed' }).click();
    await outPage.getByRole('textbox', { name: 'Phone' }).fill('+91 98765-43210');
    await outPage.getByLabel('State').selectOption('Karnataka');
    await outPage.getByRole('button', { name: 'Proceed' }).click();
    await outPage.getByText(WAITING_ROOM_MESSAGES.passRequired).waitFor();
    await outPage.getByRole('link', { name: 'Go to the waiting room' }).click();
    await outPage.waitForURL(`**/events/${ev.eventId}/waiting-room`);
  });

  it('looks right waiting in the queue on a phone and on a desktop', async () => {
    // A room that opened a minute ago, admitting 1 a minute, with five people ahead of this buyer.
    const ev = createTicketedEvent(world.database.db, {
      name: `Queue Look ${randomUUID().slice(0, 6)}`,
      now: new Date(),
    });
    const opened = new Date(Date.now() - 1_000);
    world.database.db
      .insert(waitingRooms)
      .values({
        eventId: ev.eventId,
        enabled: true,
        opensAt: opened.toISOString(),
        admitPerMinute: 1,
        drawnAt: opened.toISOString(),
        updatedAt: opened.toISOString(),
      })
      .run();
    const insert = world.database.sqlite.prepare(
      `insert into waiting_room_visitors (event_id, user_id, arrived_at, position)
       select ?, id, ?, ? from users limit 1 offset ?`,
    );
    for (let i = 0; i < 5; i++) insert.run(ev.eventId, opened.toISOString(), i + 1, i);
    for (const [name, viewport] of [
      ['phone', PHONE_390],
      ['desktop', DESKTOP],
    ] as const) {
      const { page } = await openSignedIn(viewport);
      await page.goto(`/events/${ev.eventId}/waiting-room`);
      await page.getByTestId('position').waitFor();
      await expect(page.getByTestId('estimated-wait').textContent()).resolves.toMatch(/about \d+ minutes/);
      await saveScreenshot(page, `waiting-room-queue-${name}.png`, { fullPage: true });
    }
  });
});
