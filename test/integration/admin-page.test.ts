import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PAGE_SIZE } from '../../shared/admin-schemas.ts';
import { EDITOR_MESSAGES } from '../../shared/event-editor-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { simulatePayment } from '../../src-server/integrations/simulator/gateway.ts';
import { createBookingOn } from '../helpers/bookings.ts';
import { confirm, lateSecondCapture, proceed, startInput } from '../helpers/checkout-flow.ts';
import {
  teamMember as addTeamMember,
  buy as buyTickets,
  account as createAccount,
  ownedEvent as createOwnedEvent,
  type Person,
  signedInUser,
} from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/** The event's current version (every console edit carries it), on either engine. */
async function versionOf(t: TestApp, eventId: string): Promise<number> {
  const { events } = tablesOf(t.deps.db);
  const [row] = await t.deps.db.select({ v: events.version }).from(events).where(eq(events.id, eventId));
  return row!.v;
}

interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

describe('admin page: organisers, all events, platform totals', () => {
  let t: TestApp;
  let admin: Person;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    admin = await createAccount(t, 'admin');
  });
  afterEach(async () => {
    await t.close();
  });

  const asAdmin = async (kind: 'query' | 'mutation', procedure: string, input?: unknown) =>
    callProcedure(t, kind, procedure, input, { cookie: admin.cookie });

  it('lists organisers newest first with their events count, a page at a time, and revokes one', async () => {
    const organisers: Person[] = [];
    for (let i = 0; i < ADMIN_PAGE_SIZE + 2; i++) {
      t.clock.advance(60_000);
      organisers.push(await createAccount(t, 'organiser', { name: `Organiser ${i}` }));
    }
    await createOwnedEvent(t, organisers[0]!.userId);
    await createOwnedEvent(t, organisers[0]!.userId);
    await createAccount(t); // a buyer is not listed

    const first = (await asAdmin('query', 'admin.organisers', { page: 1 })).data as Page<{
      name: string;
      email: string;
      eventsCount: number;
      since: string;
    }>;
    expect(first.total).toBe(ADMIN_PAGE_SIZE + 2);
    expect(first.items).toHaveLength(ADMIN_PAGE_SIZE);
    expect(first.items[0]).toMatchObject({ name: `Organiser ${ADMIN_PAGE_SIZE + 1}`, eventsCount: 0 });
    const second = (await asAdmin('query', 'admin.organisers', { page: 2 })).data as typeof first;
    expect(second.items.map((o) => o.name)).toEqual(['Organiser 1', 'Organiser 0']);
    expect(second.items[1]).toMatchObject({ email: organisers[0]!.email, eventsCount: 2 });

    // Revoking is the same procedure as the grant form, with 'none'.
    const revoked = await asAdmin('mutation', 'admin.setOrganiser', {
      email: organisers[0]!.email,
      role: 'none',
    });
    expect(revoked.status).toBe(200);
    const after = (await asAdmin('query', 'admin.organisers', { page: 2 })).data as typeof first;
    expect(after.total).toBe(ADMIN_PAGE_SIZE + 1);
    expect(after.items.map((o) => o.name)).toEqual(['Organiser 1']);
    const access = await callProcedure(t, 'query', 'console.access', undefined, {
      cookie: organisers[0]!.cookie,
    });
    expect(access.data).toMatchObject({ role: 'none' });
  });

  it('lists every organiser’s events with owner, status and sold, and pages them', async () => {
    const asha = await createAccount(t, 'organiser', { name: 'Asha' });
    const ravi = await createAccount(t, 'organiser', { name: 'Ravi' });
    const buyer = await createAccount(t);
    const sold = await createBookingOn(t, {
      userId: buyer.userId,
      quantity: 3,
      event: { ownerId: asha.userId },
    });
    t.clock.advance(1000);
    const draft = await createOwnedEvent(t, ravi.userId, 'Ravi’s Draft');
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ status: 'draft' }).where(eq(events.id, draft.eventId));

    const list = (await asAdmin('query', 'admin.events', { page: 1 })).data as Page<{
      id: string;
      name: string;
      status: string;
      ownerName: string;
      ownerEmail: string;
      sold: number;
      startTime: string;
    }>;
    expect(list.total).toBe(2);
    expect(list.items.find((e) => e.id === sold.eventId)).toMatchObject({
      status: 'on_sale',
      ownerName: 'Asha',
      ownerEmail: asha.email,
      sold: 3,
      startTime: '2026-12-05T13:30:00.000Z',
    });
    expect(list.items.find((e) => e.id === draft.eventId)).toMatchObject({
      status: 'draft',
      ownerName: 'Ravi',
    });

    for (let i = 0; i < ADMIN_PAGE_SIZE; i++) await createOwnedEvent(t, ravi.userId, `Filler ${i}`);
    const page2 = (await asAdmin('query', 'admin.events', { page: 2 })).data as typeof list;
    expect(page2.total).toBe(ADMIN_PAGE_SIZE + 2);
    expect(page2.items).toHaveLength(2);
  });

  it('unpublishes another organiser’s event: gone from the storefront, owner mailed, bookings kept', async () => {
    const owner = await createAccount(t, 'organiser', { name: 'Meera' });
    const buyer = await createAccount(t);
    const booked = await createBookingOn(t, {
      userId: buyer.userId,
      event: { ownerId: owner.userId, name: 'Meera Live' },
    });
    const byId = () => callProcedure(t, 'query', 'events.byId', { id: booked.eventId });
    expect((await byId()).status).toBe(200);

    const stale = await asAdmin('mutation', 'admin.unpublishEvent', { eventId: booked.eventId, version: 99 });
    expect(stale.status).toBe(409);

    const done = await asAdmin('mutation', 'admin.unpublishEvent', { eventId: booked.eventId, version: 1 });
    expect(done.status).toBe(200);
    expect(done.data).toEqual({ version: 2 });
    expect((await byId()).status).toBe(404);
    const list = (await callProcedure(t, 'query', 'events.list', undefined)).data as { id: string }[];
    expect(list.map((e) => e.id)).not.toContain(booked.eventId);

    const { outbox } = tablesOf(t.deps.db);
    const [mail] = await t.deps.db.select().from(outbox).where(eq(outbox.to, owner.email));
    expect(mail?.subject).toBe('Meera Live was taken off sale');
    expect(mail?.text).toContain(`/organiser/events/${booked.eventId}/edit`);
    const mine = await callProcedure(t, 'query', 'bookings.mine', undefined, { cookie: buyer.cookie });
    expect(JSON.stringify(mine.data)).toContain(booked.row.id);

    // Only a published event can be taken off sale; an unknown id is not found.
    const again = await asAdmin('mutation', 'admin.unpublishEvent', { eventId: booked.eventId, version: 2 });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe('Only a published event can be unpublished.');
    const unknown = await asAdmin('mutation', 'admin.unpublishEvent', { eventId: 'evt-nope', version: 1 });
    expect(unknown.status).toBe(404);
  });

  it('an admin’s unpublish is a hold: neither the owner nor a co-organiser republishes it, a revoked organiser publishes nothing, only an admin releases it', async () => {
    const owner = await createAccount(t, 'organiser', { name: 'Meera' });
    const co = await createAccount(t);
    const ev = await createOwnedEvent(t, owner.userId, 'Meera Live');
    await addTeamMember(t, ev.eventId, co.userId, 'co_organiser');
    await buyTickets(t, ev, 1);
    const publish = async (who: { cookie: string }) =>
      callProcedure(
        t,
        'mutation',
        'organiser.publish',
        { eventId: ev.eventId, version: await versionOf(t, ev.eventId) },
        { cookie: who.cookie },
      );
    const editable = async () =>
      (await callProcedure(t, 'query', 'organiser.editableEvent', { eventId: ev.eventId }, owner)).data as {
        status: string;
        adminHold: { at: string; reason: string | null } | null;
      };

    // The attack (issue 35, item 5): the admin takes the event down and revokes the organiser, who
    // republishes it; a buyer books.
    const held = await asAdmin('mutation', 'admin.unpublishEvent', {
      eventId: ev.eventId,
      version: await versionOf(t, ev.eventId),
      reason: 'Venue not confirmed',
    });
    expect(held.status).toBe(200);
    expect(
      (await asAdmin('mutation', 'admin.setOrganiser', { email: owner.email, role: 'none' })).status,
    ).toBe(200);
    // The refusal: the hold is the admin's; neither the owner nor their co-organiser lifts it.
    for (const who of [owner, co]) {
      const refused = await publish(who);
      expect(refused.status).toBe(403);
      expect(refused.body.error?.message).toBe(EDITOR_MESSAGES.adminHold);
    }
    expect(await editable()).toMatchObject({
      status: 'draft',
      adminHold: { at: t.clock.now().toISOString(), reason: 'Venue not confirmed' },
    });
    expect((await callProcedure(t, 'query', 'events.byId', { id: ev.eventId })).status).toBe(404);
    const buyer = await signedInUser(t);
    const start = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), {
      cookie: buyer.cookie,
    });
    expect(start.body.error?.data.code).toBe('NOT_FOUND');
    // The admin list says so.
    const listed = (await asAdmin('query', 'admin.events', { page: 1 })).data as {
      items: { id: string; onHold: boolean }[];
    };
    expect(listed.items.find((e) => e.id === ev.eventId)?.onHold).toBe(true);

    // An admin releases the hold; the owner still may not publish without organiser rights.
    expect((await asAdmin('mutation', 'admin.releaseEvent', { eventId: ev.eventId })).status).toBe(200);
    expect((await editable()).adminHold).toBeNull();
    for (const who of [owner, co]) {
      const refused = await publish(who);
      expect(refused.status).toBe(403);
      expect(refused.body.error?.message).toBe(EDITOR_MESSAGES.ownerNotOrganiser);
    }
    // Rights given back, the owner publishes again.
    await asAdmin('mutation', 'admin.setOrganiser', { email: owner.email, role: 'organiser' });
    expect((await publish(owner)).data).toMatchObject({ published: true });
    // Releasing an event not on hold is refused; another hold can be released by an admin only.
    expect((await asAdmin('mutation', 'admin.releaseEvent', { eventId: ev.eventId })).status).toBe(409);
  });

  it('an admin may publish a held event from the editor, which releases the hold', async () => {
    const owner = await createAccount(t, 'organiser');
    const ev = await createOwnedEvent(t, owner.userId);
    await asAdmin('mutation', 'admin.unpublishEvent', {
      eventId: ev.eventId,
      version: await versionOf(t, ev.eventId),
    });
    const published = await asAdmin('mutation', 'organiser.publish', {
      eventId: ev.eventId,
      version: await versionOf(t, ev.eventId),
    });
    expect(published.data).toMatchObject({ published: true });
    const unpublished = await callProcedure(
      t,
      'mutation',
      'organiser.unpublish',
      { eventId: ev.eventId, version: await versionOf(t, ev.eventId) },
      owner,
    );
    expect(unpublished.status).toBe(200);
    // The owner's own unpublish is no hold: they publish again.
    const again = await callProcedure(
      t,
      'mutation',
      'organiser.publish',
      { eventId: ev.eventId, version: await versionOf(t, ev.eventId) },
      owner,
    );
    expect(again.data).toMatchObject({ published: true });
  });

  it('adds up the platform: events by status, tickets sold, gross, convenience fees and refunds', async () => {
    const owner = await createAccount(t, 'organiser');
    const buyer = await createAccount(t);
    await createBookingOn(t, { userId: buyer.userId, quantity: 2, event: { ownerId: owner.userId } });
    const draft = await createOwnedEvent(t, owner.userId, 'A Draft');
    const { bookings, events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ status: 'draft' }).where(eq(events.id, draft.eventId));
    // Through the real checkout: one booking of 1 ticket, and a second payment on the same order refunded.
    const ev = await createOwnedEvent(t, owner.userId, 'Paid Twice');
    const session = await proceed(t, buyer.cookie, ev, 1);
    await confirm(t, buyer.cookie, await simulatePayment(t.deps, session.orderId));
    // A second payment on the same order that also went through (Razorpay's rare late UPI success; the
    // simulator's own Pay refuses a paid order).
    const refunded = await confirm(t, buyer.cookie, await lateSecondCapture(t, session.orderId));
    expect(refunded.data).toMatchObject({ outcome: 'refunded' });

    const totals = (await asAdmin('query', 'admin.totals')).data;
    const subtotal = 2 * 99_999 + 99_999;
    const paidTwice = await t.deps.db
      .select({ fee: bookings.feeAmountPaise, total: bookings.totalAmountPaise })
      .from(bookings)
      .where(eq(bookings.eventId, ev.eventId));
    const expected = {
      fees: paidTwice.reduce((sum, b) => sum + b.fee, 0),
      paidOnce: paidTwice.reduce((sum, b) => sum + b.total, 0),
    };
    expect(totals).toEqual({
      events: { draft: 1, published: 2, cancelled: 0 },
      ticketsSold: 3,
      grossPaise: subtotal,
      feesPaise: Math.round(2 * 99_999 * 0.05) + expected.fees,
      refunds: 1,
      refundsPaise: expected.paidOnce,
    });
  });
});
