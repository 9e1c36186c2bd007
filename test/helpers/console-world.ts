import { eq } from 'drizzle-orm';
import type { AccountRole, TeamRole } from '../../shared/organiser-schemas.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { eventTeamMembers } from '../../src-server/db/schema/roles.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import { createTicketedEvent, type TicketedEvent } from './inventory.ts';
import type { TestApp } from './test-app.ts';
import { createSignedInUser } from './users.ts';

export const CALLERS = [
  'signed out',
  'buyer',
  'organiser of another event',
  'gate staff',
  'box office',
  'co-organiser',
  'owner',
  'admin',
] as const;
export type Caller = (typeof CALLERS)[number];

type Person = ReturnType<typeof createSignedInUser>;

export interface ConsoleWorld {
  event: TicketedEvent;
  otherEvent: TicketedEvent;
  people: Record<Exclude<Caller, 'signed out'>, Person>;
  cookieOf: (caller: Caller) => string | undefined;
}

/** A signed-in account with an installation role. */
export function createAccount(t: TestApp, role: AccountRole = 'none', overrides = {}): Person {
  const person = createSignedInUser(t, overrides);
  writeAccountRole(t.deps.db, person.userId, role, null, t.clock.now());
  return person;
}

export function addTeamMember(t: TestApp, eventId: string, userId: string, role: TeamRole) {
  t.deps.db
    .insert(eventTeamMembers)
    .values({ eventId, userId, role, addedAt: t.clock.now().toISOString() })
    .run();
}

/**
 * An event owned by `ownerId`, with one slot, one ticket type and a poster (a demo picture: publishing
 * needs one), so that as a draft it could be published as it is.
 */
export function createOwnedEvent(t: TestApp, ownerId: string, name?: string): TicketedEvent {
  const event = createTicketedEvent(t.deps.db, name ? { name } : {});
  t.deps.db
    .update(events)
    .set({ ownerId, posterUrl: '/images/events/sufi-nights-delhi-poster.webp' })
    .where(eq(events.id, event.eventId))
    .run();
  return event;
}

/**
 * Everyone the access matrix tries: an event with its owner, a co-organiser, gate staff and a box-office
 * member (issue 40); an
 * organiser who owns another event; a buyer; an admin of the installation.
 */
export function createConsoleWorld(t: TestApp): ConsoleWorld {
  const people = {
    buyer: createAccount(t),
    'organiser of another event': createAccount(t, 'organiser'),
    'gate staff': createAccount(t),
    'box office': createAccount(t),
    'co-organiser': createAccount(t),
    owner: createAccount(t, 'organiser'),
    admin: createAccount(t, 'admin'),
  };
  const event = createOwnedEvent(t, people.owner.userId);
  const otherEvent = createOwnedEvent(t, people['organiser of another event'].userId);
  addTeamMember(t, event.eventId, people['gate staff'].userId, 'gate_staff');
  addTeamMember(t, event.eventId, people['box office'].userId, 'box_office');
  addTeamMember(t, event.eventId, people['co-organiser'].userId, 'co_organiser');
  return {
    event,
    otherEvent,
    people,
    cookieOf: (caller) => (caller === 'signed out' ? undefined : people[caller].cookie),
  };
}
