import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { events, ticketTypes } from './catalog.ts';

/**
 * A capacity shared by several ticket types (issue 40, ADR 0039): the hall holds 940 whatever mix of
 * Stalls and Balcony sells. Like pretix's quotas, but counted as the ticket types are: `available` is
 * taken by the hold's conditional UPDATE and given back wherever a type's seats come back, so
 * available + active holds + confirmed tickets of its types = capacity. Its slots are its types' slots
 * (one slot, or several when the organiser chose a multi-slot quota).
 */
export const quotas = sqliteTable(
  'quotas',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    capacity: integer('capacity').notNull(),
    available: integer('available').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('quotas_event_idx').on(t.eventId)],
);

/**
 * Which ticket types a quota counts. Keyed by the ticket type first: the hold's one extra lookup
 * (`quotasOfType`) reads this primary key's index and nothing else, and finds nothing for a type
 * without a quota.
 */
export const quotaTicketTypes = sqliteTable(
  'quota_ticket_types',
  {
    ticketTypeId: text('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id, { onDelete: 'cascade' }),
    quotaId: text('quota_id')
      .notNull()
      .references(() => quotas.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.ticketTypeId, t.quotaId] }),
    index('quota_ticket_types_quota_idx').on(t.quotaId),
  ],
);
