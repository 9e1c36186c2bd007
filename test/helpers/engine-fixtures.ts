import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { AccountRole, TeamRole } from '../../shared/organiser-schemas.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { changes } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import {
  createSessionSteps,
  generateSessionToken,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionIdOf,
} from '../../src-server/services/accounts/sessions.ts';
import { newLinkToken } from '../../src-server/services/accounts/tokens.ts';
import { enqueueMailSteps, type OutgoingMail } from '../../src-server/services/mail/outbox.ts';
import { writeAccountRoleSteps } from '../../src-server/services/roles/set-account-role.ts';
import { INVITATION_TTL_MS } from '../../src-server/services/team/invite-team-member.ts';
import type { Caller, ConsoleWorld } from './console-world.ts';
import { insertEventSteps } from './insert-event.ts';
import {
  countOfOn,
  createTicketedEventOn,
  type QuotaCount,
  type TicketedEvent,
  ticketedEventFixture,
} from './inventory.ts';
import { type BuyOptions, buyAs } from './organiser-bookings.ts';
import type { TestApp } from './test-app.ts';
import { callProcedure } from './trpc-http.ts';

/**
 * The set-up of users.ts and console-world.ts on either engine (ADR 0045), for integration files that run
 * once per engine (vitest.config.ts ON_BOTH_ENGINES, `createTestAppOn(testEngine())`): each writes through
 * the app's own steps (a session, an account role) or the engine's tables (`tablesOf`) on `t.deps.db`,
 * never `t.deps.sqlite`, and is awaited. Same rows, same defaults as the synchronous helpers.
 */

let counter = 0;

export type Person = { userId: string; email: string; name: string; cookie: string };

type UserRow = Partial<ReturnType<typeof tablesOf>['users']['$inferInsert']>;

/**
 * `createSignedInUser` on either engine: the account (verified unless overridden), an account role if
 * `role` is given, and a session, in one write transaction; returns the Cookie header that signs in as it.
 */
export async function signedInUser(
  t: TestApp,
  overrides: UserRow = {},
  role: AccountRole = 'none',
): Promise<Person> {
  counter += 1;
  const now = t.clock.now();
  const userId = overrides.id ?? randomUUID();
  const email = overrides.email ?? `buyer${counter}-${userId.slice(0, 8)}@example.com`;
  const name = overrides.name ?? `Test Buyer ${counter}`;
  const { token } = await runnerFor(t.deps.db).write(function* (tx) {
    const { users } = tablesOf(tx);
    yield* changes(
      tx.insert(users).values({
        id: userId,
        email,
        name,
        phone: '9876543210',
        isEmailVerified: true,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
        ...overrides,
      }),
    );
    if (role !== 'none') yield* writeAccountRoleSteps(tx, userId, role, null, now);
    return yield* createSessionSteps(tx, userId, now);
  });
  return { userId, email, name, cookie: `${SESSION_COOKIE}=${token}` };
}

/** `createAccount`: a signed-in account with an installation role. */
export function account(t: TestApp, role: AccountRole = 'none', overrides: UserRow = {}): Promise<Person> {
  return signedInUser(t, overrides, role);
}

/** `addTeamMember`: `userId` gets `role` on the event. */
export async function teamMember(t: TestApp, eventId: string, userId: string, role: TeamRole): Promise<void> {
  const { eventTeamMembers } = tablesOf(t.deps.db);
  await t.deps.db
    .insert(eventTeamMembers)
    .values({ eventId, userId, role, addedAt: t.clock.now().toISOString() });
}

/** `createOwnedEvent`: an event owned by `ownerId`, with a poster, so that as a draft it could be published. */
export async function ownedEvent(t: TestApp, ownerId: string, name?: string): Promise<TicketedEvent> {
  const event = await createTicketedEventOn(t.deps.db, name ? { name } : {});
  const { events } = tablesOf(t.deps.db);
  await t.deps.db
    .update(events)
    .set({ ownerId, posterUrl: '/images/events/sufi-nights-delhi-poster.webp' })
    .where(eq(events.id, event.eventId));
  return event;
}

/** A waiting invitation written straight to the table; its id and the link's token. */
export async function invitation(
  t: TestApp,
  invite: { eventId: string; invitedBy: string; email?: string; role?: TeamRole },
): Promise<{ invitationId: string; token: string }> {
  const { token, id: tokenHash } = newLinkToken();
  const invitationId = randomUUID();
  const now = t.clock.now();
  const { teamInvitations } = tablesOf(t.deps.db);
  await t.deps.db.insert(teamInvitations).values({
    id: invitationId,
    eventId: invite.eventId,
    email: invite.email ?? `invitee-${invitationId.slice(0, 8)}@example.com`,
    tokenHash,
    role: invite.role ?? 'co_organiser',
    invitedBy: invite.invitedBy,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
    createdAt: now.toISOString(),
  });
  return { invitationId, token };
}

/** An organiser request waiting for an admin. */
export async function pendingRequest(t: TestApp, userId: string): Promise<string> {
  const id = randomUUID();
  const { organiserRequests } = tablesOf(t.deps.db);
  await t.deps.db.insert(organiserRequests).values({
    id,
    userId,
    organisationName: 'Sur Sangam Events',
    contactPhone: '9876543210',
    city: 'Pune',
    whatTheyRun: 'Classical concerts',
    createdAt: t.clock.now().toISOString(),
  });
  return id;
}

/** `createConsoleWorld`: everyone the console access matrix tries, on either engine. */
export async function consoleWorld(t: TestApp): Promise<ConsoleWorld> {
  const people = {
    buyer: await account(t),
    'organiser of another event': await account(t, 'organiser'),
    'gate staff': await account(t),
    'box office': await account(t),
    'co-organiser': await account(t),
    owner: await account(t, 'organiser'),
    admin: await account(t, 'admin'),
  };
  const event = await ownedEvent(t, people.owner.userId);
  const otherEvent = await ownedEvent(t, people['organiser of another event'].userId);
  await teamMember(t, event.eventId, people['gate staff'].userId, 'gate_staff');
  await teamMember(t, event.eventId, people['box office'].userId, 'box_office');
  await teamMember(t, event.eventId, people['co-organiser'].userId, 'co_organiser');
  return {
    event,
    otherEvent,
    people,
    cookieOf: (caller: Caller) => (caller === 'signed out' ? undefined : people[caller].cookie),
  };
}

/**
 * `buyTickets` on either engine: a new buyer books `quantity` tickets through the real Proceed →
 * simulator → confirm flow (HTTP, engine-neutral already); only the buyer's account differs.
 */
export async function buy(t: TestApp, ev: TicketedEvent, quantity = 2, options: BuyOptions = {}) {
  return buyAs(t, await signedInUser(t), ev, quantity, options);
}

/** `mailKeys` (organiser-bookings.ts) on either engine: the idempotency key of every mail in the outbox. */
export async function mailKeysOn(t: TestApp): Promise<string[]> {
  const { outbox } = tablesOf(t.deps.db);
  return (await t.deps.db.select({ key: outbox.idempotencyKey }).from(outbox)).map((m) => m.key);
}

/** `refundOf` (organiser-bookings.ts) on either engine: the refund of a payment, if any. */
export async function refundOn(t: TestApp, paymentId: string) {
  const { refunds } = tablesOf(t.deps.db);
  const [refund] = await t.deps.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
  return refund;
}

/** `mailOf` (organiser-bookings.ts) on either engine: the outbox's mail of an idempotency key, if any. */
export async function mailOn(t: TestApp, key: string) {
  const { outbox } = tablesOf(t.deps.db);
  const [mail] = await t.deps.db.select().from(outbox).where(eq(outbox.idempotencyKey, key));
  return mail;
}

/**
 * `inviteThroughOwner` on either engine: the owner invites `email` through console.invite; the mail just
 * queued to that address (the newest, by the outbox's id) and its link's token.
 */
export async function invitedThroughOwner(t: TestApp, w: ConsoleWorld, email: string, role = 'co_organiser') {
  const res = await callProcedure(
    t,
    'mutation',
    'console.invite',
    { eventId: w.event.eventId, email, role },
    { cookie: w.people.owner.cookie },
  );
  expect(res.status).toBe(200);
  const { token, mail } = await invitationMailedTo(t, email);
  return { token, mail };
}

/** The newest invitation mail queued to `email` and its link's token. */
export async function invitationMailedTo(t: TestApp, email: string) {
  const { outbox } = tablesOf(t.deps.db);
  const [mail] = await t.deps.db
    .select()
    .from(outbox)
    .where(eq(outbox.to, email))
    .orderBy(desc(outbox.id))
    .limit(1);
  if (!mail) throw new Error(`no mail queued to ${email}`);
  const token = /\/organiser\/invitations\/([a-z0-9]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation link in the newest mail to ${email}`);
  return { token, mail };
}

/**
 * `consoleWorld`'s rows (the seven people with their roles and sessions, the two owned events, the team)
 * in one write transaction instead of twelve, each table in one statement where it can be: for a file
 * that builds hundreds of worlds (the console access matrix gives every mutation's caller its own).
 */
export async function consoleWorldInOneWrite(t: TestApp): Promise<ConsoleWorld> {
  const now = t.clock.now();
  const roles = {
    buyer: 'none',
    'organiser of another event': 'organiser',
    'gate staff': 'none',
    'box office': 'none',
    'co-organiser': 'none',
    owner: 'organiser',
    admin: 'admin',
  } as const satisfies Record<Exclude<Caller, 'signed out'>, AccountRole>;
  const people = Object.fromEntries(
    Object.keys(roles).map((who) => {
      counter += 1;
      const userId = randomUUID();
      const email = `buyer${counter}-${userId.slice(0, 8)}@example.com`;
      return [who, { userId, email, name: `Test Buyer ${counter}`, cookie: '' }];
    }),
  ) as Record<keyof typeof roles, Person>;
  const event = ticketedEventFixture({});
  const otherEvent = ticketedEventFixture({});
  await runnerFor(t.deps.db).write(function* (tx) {
    const { users, accountRoles, sessions, events, eventTeamMembers } = tablesOf(tx);
    yield* changes(tx.insert(users).values(Object.values(people).map((p) => verifiedUserRow(p, now))));
    // Roles and sessions as `account` writes them, each table in one statement.
    const signedIn = Object.values(people).map((p) => ({ p, token: generateSessionToken() }));
    for (const { p, token } of signedIn) p.cookie = `${SESSION_COOKIE}=${token}`;
    yield* changes(
      tx.insert(accountRoles).values(
        (['organiser of another event', 'owner', 'admin'] as const).map((who) => ({
          userId: people[who].userId,
          role: roles[who],
          grantedBy: null,
          grantedAt: now.toISOString(),
        })),
      ),
    );
    yield* changes(
      tx.insert(sessions).values(
        signedIn.map(({ p, token }) => ({
          id: sessionIdOf(token),
          userId: p.userId,
          expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
          createdAt: now.toISOString(),
        })),
      ),
    );
    // The events last: their listing bumps the one catalog_version row, which concurrent worlds queue on.
    for (const [fixture, owner] of [
      [event, people.owner],
      [otherEvent, people['organiser of another event']],
    ] as const) {
      yield* insertEventSteps(tx, fixture.doc, fixture.createdAt);
      yield* changes(
        tx
          .update(events)
          .set({ ownerId: owner.userId, posterUrl: '/images/events/sufi-nights-delhi-poster.webp' })
          .where(eq(events.id, fixture.event.eventId)),
      );
    }
    const addedAt = now.toISOString();
    yield* changes(
      tx.insert(eventTeamMembers).values([
        { eventId: event.event.eventId, userId: people['gate staff'].userId, role: 'gate_staff', addedAt },
        { eventId: event.event.eventId, userId: people['box office'].userId, role: 'box_office', addedAt },
        {
          eventId: event.event.eventId,
          userId: people['co-organiser'].userId,
          role: 'co_organiser',
          addedAt,
        },
      ]),
    );
  });
  return {
    event: event.event,
    otherEvent: otherEvent.event,
    people,
    cookieOf: (caller: Caller) => (caller === 'signed out' ? undefined : people[caller].cookie),
  };
}

/** `quotaCountOf` (inventory.ts) on either engine: a quota's capacity and available, and its types' held and sold. */
export async function quotaCountOn(t: TestApp, quotaId: string): Promise<QuotaCount> {
  const { quotas, quotaTicketTypes } = tablesOf(t.deps.db);
  const [quota] = await t.deps.db.select().from(quotas).where(eq(quotas.id, quotaId));
  if (!quota) throw new Error(`no quota ${quotaId}`);
  const members = await t.deps.db
    .select()
    .from(quotaTicketTypes)
    .where(eq(quotaTicketTypes.quotaId, quotaId));
  const ticketTypeIds = members.map((m) => m.ticketTypeId);
  const types = await Promise.all(ticketTypeIds.map((id) => countOfOn(t.deps.db, id)));
  return {
    quotaId,
    capacity: quota.capacity,
    available: quota.available,
    held: types.reduce((sum, c) => sum + c.held, 0),
    sold: types.reduce((sum, c) => sum + c.sold, 0),
    ticketTypeIds,
  };
}

/** `enqueueMail` on either engine: queues `mail` in a write transaction of its own, at the app's clock. */
export function queueMailOn(t: TestApp, mail: OutgoingMail): Promise<void> {
  return runnerFor(t.deps.db).write((tx) => enqueueMailSteps(tx as WriteTx, mail, t.clock.now()));
}

/**
 * `count` signed-in buyers as `signedInUser` makes them (verified, no role), in one write transaction of
 * two statements: for a crowd of hundreds, whose one transaction each costs a PostgreSQL test seconds.
 */
export async function signedInUsersInOneWrite(t: TestApp, count: number): Promise<Person[]> {
  const now = t.clock.now();
  const people = Array.from({ length: count }, (): Person & { token: string } => {
    counter += 1;
    const userId = randomUUID();
    const token = generateSessionToken();
    return {
      userId,
      email: `buyer${counter}-${userId.slice(0, 8)}@example.com`,
      name: `Test Buyer ${counter}`,
      cookie: `${SESSION_COOKIE}=${token}`,
      token,
    };
  });
  await runnerFor(t.deps.db).write(function* (tx) {
    const { users, sessions } = tablesOf(tx);
    yield* changes(tx.insert(users).values(people.map((p) => verifiedUserRow(p, now))));
    yield* changes(
      tx.insert(sessions).values(
        people.map((p) => ({
          id: sessionIdOf(p.token),
          userId: p.userId,
          expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
          createdAt: now.toISOString(),
        })),
      ),
    );
  });
  return people.map(({ token: _token, ...person }) => person);
}

/** `versionOf` (organiser-bookings.ts) on either engine: the event's current version (every console edit carries it). */
export async function versionOn(t: TestApp, eventId: string): Promise<number> {
  const { events } = tablesOf(t.deps.db);
  const [row] = await t.deps.db.select({ v: events.version }).from(events).where(eq(events.id, eventId));
  if (!row) throw new Error(`no event ${eventId}`);
  return row.v;
}

/** A users row as `signedInUser` makes one: verified, the test phone number. */
function verifiedUserRow(p: Pick<Person, 'userId' | 'email' | 'name'>, now: Date) {
  return {
    id: p.userId,
    email: p.email,
    name: p.name,
    phone: '9876543210',
    isEmailVerified: true,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}
