import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AccountRole, OrganiserRequestStatus, TeamRole } from '../../../shared/organiser-schemas.ts';
import { users } from './accounts.ts';
import { events } from './catalog.ts';

/**
 * An account's installation-wide role (docs/decisions/0015-roles-and-ownership.md). No row means 'none':
 * a buyer. A table of its own rather than a column on `users`, so the session lookup every request
 * makes stays as it is and only organiser and admin procedures read it.
 */
export const accountRoles = pgTable(
  'account_roles',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<Exclude<AccountRole, 'none'>>().notNull(),
    /** Null when set by `npm run user:role`, a migration or the demo seed. */
    grantedBy: text('granted_by').references(() => users.id, { onDelete: 'set null' }),
    grantedAt: text('granted_at').notNull(),
  },
  // The admin page lists organisers newest first, a page at a time.
  (t) => [index('account_roles_role_granted_idx').on(t.role, t.grantedAt)],
);

/** The people an event's owner added to it: one role per person and event. */
export const eventTeamMembers = pgTable(
  'event_team_members',
  {
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<TeamRole>().notNull(),
    invitationId: text('invitation_id'),
    addedAt: text('added_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] }), index('event_team_members_user_idx').on(t.userId)],
);

/**
 * An e-mailed invitation to join one event's team. The link carries a random token; only its SHA-256
 * is kept, like password reset links. Accepted once, by the account with the invited address.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    role: text('role').$type<TeamRole>().notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: text('expires_at').notNull(),
    acceptedAt: text('accepted_at'),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('team_invitations_event_idx').on(t.eventId, t.createdAt),
    // Inviting looks up the event's open invitation for an address (invite-team-member.ts).
    index('team_invitations_event_email_idx').on(t.eventId, t.email),
    // A change to someone's roles voids the invitations they sent (team/void-invitations.ts).
    index('team_invitations_invited_by_idx').on(t.invitedBy),
  ],
);

/** "List your Event": someone asks to become an organiser; an admin approves or declines. */
export const organiserRequests = pgTable(
  'organiser_requests',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organisationName: text('organisation_name').notNull(),
    contactPhone: text('contact_phone').notNull(),
    /** One of shared/cities.ts's names. */
    city: text('city').notNull(),
    whatTheyRun: text('what_they_run').notNull(),
    gstin: text('gstin'),
    status: text('status').$type<OrganiserRequestStatus>().notNull().default('pending'),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: text('decided_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('organiser_requests_status_idx').on(t.status, t.createdAt),
    // At most one request waiting per person.
    uniqueIndex('organiser_requests_one_pending_idx').on(t.userId).where(sql`${t.status} = 'pending'`),
  ],
);
