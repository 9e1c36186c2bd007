import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { EventCategory } from '../../../shared/categories.ts';
import type { EventStatus } from '../../../shared/event-editor-schemas.ts';
import type { AdmissionKind } from '../../../shared/gst.ts';
import type { RefundRule } from '../../../shared/refund-policy.ts';
import { users } from './accounts.ts';

/**
 * The spec's nested event document (event → dates → slots → ticket types), normalised so that
 * inventory can be locked one ticket type at a time. Instants are UTC ISO-8601 text; money is paise.
 */
export const events = sqliteTable(
  'events',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    category: text('category').$type<EventCategory>().notNull(),
    /** One of the city list's names (shared/cities.ts). */
    city: text('city').notNull(),
    imagesUrls: text('images_urls', { mode: 'json' }).$type<string[]>().notNull().default([]),
    posterUrl: text('poster_url'),
    startTime: text('start_time').notNull(),
    endTime: text('end_time'),
    eventLocationText: text('event_location_text').notNull().default(''),
    googleMapsEmbedLink: text('google_maps_embed_link'),
    ageRestrictions: integer('age_restrictions'),
    /** The language the event is performed in, as the organiser writes it; null when not given. */
    language: text('language'),
    termsAndConditions: text('terms_and_conditions', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default([]),
    /** Percent of the subtotal charged as the convenience fee; null means the default (shared/pricing.ts). */
    platformFeeRate: real('platform_fee_rate'),
    /**
     * The most tickets one account may have for this event, its active holds and confirmed bookings
     * together (set by the organiser); null means no limit beyond each ticket type's per-order maximum.
     */
    maxTicketsPerBuyer: integer('max_tickets_per_buyer'),
    /** GST rate on admission, percent; null means the organiser profile's default (issue 16). */
    taxRate: real('tax_rate'),
    /**
     * Whether ticket prices include GST (true) or have it added at checkout (false, "₹750 + GST"; only
     * for a GST-registered organiser, issue 40); null means the organiser profile's `tax_inclusive`.
     */
    taxInclusive: integer('tax_inclusive', { mode: 'boolean' }),
    /**
     * The state the venue is in, which is the place of supply of admission (IGST Act s.12(6), issue 36):
     * one of the city's states (shared/gst-states.ts venueStatesOfCity); null means the city's state, the
     * rule for events saved before venues had one.
     */
    venueState: text('venue_state'),
    /** Entry 81's kind of admission (shared/gst.ts ADMISSION_KINDS); null means the category's default. */
    admissionKind: text('admission_kind').$type<AdmissionKind>(),
    /**
     * Buyer cancellation (issue 16, ADR 0019): a buyer may cancel until this many hours before the slot
     * starts, and gets back the whole total ('full'), the total less the convenience fee ('minus_fee'),
     * or `refundPercent` percent of the total ('percent').
     */
    refundCutoffHours: integer('refund_cutoff_hours').notNull().default(24),
    refundRule: text('refund_rule').$type<RefundRule>().notNull().default('full'),
    refundPercent: integer('refund_percent'),
    /** Ticket transfers (issue 16, ADR 0025): whether buyers may give a booking away, and how often per booking. */
    transfersAllowed: integer('transfers_allowed', { mode: 'boolean' }).notNull().default(true),
    maxTransfersPerBooking: integer('max_transfers_per_booking').notNull().default(1),
    /** How long a waiting-list offer holds its seats (issue 19), minutes. */
    waitlistOfferMinutes: integer('waitlist_offer_minutes').notNull().default(30),
    /**
     * The organiser who owns the event (docs/decisions/0015-roles-and-ownership.md). Nullable only
     * because SQLite cannot add a NOT NULL reference to a filled table; every event written since has one.
     */
    ownerId: text('owner_id').references(() => users.id),
    /**
     * Only 'published' events reach buyers (lists, search, detail, link previews, Proceed). Events made
     * before the editor existed were all on sale, hence the default.
     */
    status: text('status').$type<EventStatus>().notNull().default('published'),
    /**
     * Set when an admin takes the event off sale (services/admin/unpublish-any-event.ts): a hold that only
     * an admin lifts (admin.releaseEvent, or an admin publishing it); until then the owner and the team
     * cannot publish it (issue 35). Who, when and why; all null when not held.
     */
    adminHoldAt: text('admin_hold_at'),
    adminHoldBy: text('admin_hold_by').references(() => users.id),
    adminHoldReason: text('admin_hold_reason'),
    /** Raised by every console edit; an edit based on an older version is refused (optimistic concurrency). */
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    /**
     * Maintained catalogue data (docs/decisions/0021-catalogue-pages-and-search.md), rewritten by
     * services/catalog/refresh-event-listing.ts whenever the event's dates, slots or ticket types change:
     * the lowest price of any ticket type (null without one) and the last instant the event is still on
     * (its last slot's end, or its own end or start), so lists never aggregate ticket types per request.
     */
    lowestPricePaise: integer('lowest_price_paise'),
    lastEndsAt: text('last_ends_at'),
  },
  (t) => [
    index('events_city_idx').on(t.city),
    index('events_start_idx').on(t.startTime),
    index('events_owner_idx').on(t.ownerId),
    index('events_status_start_idx').on(t.status, t.startTime),
    // Catalogue pages (ADR 0021): each list is one index range in its order, with the "still on" filter
    // read from the index too.
    index('events_list_all_idx').on(t.status, t.startTime, t.name, t.id, t.lastEndsAt),
    index('events_list_city_idx').on(t.status, t.city, t.startTime, t.name, t.id, t.lastEndsAt),
    index('events_list_category_idx').on(t.status, t.category, t.startTime, t.name, t.id, t.lastEndsAt),
    index('events_list_city_category_idx').on(
      t.status,
      t.city,
      t.category,
      t.startTime,
      t.name,
      t.id,
      t.lastEndsAt,
    ),
  ],
);

export const artists = sqliteTable(
  'artists',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    imageUrl: text('image_url'),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('artists_event_idx').on(t.eventId)],
);

export const eventDates = sqliteTable(
  'event_dates',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    dateOfEvent: text('date_of_event').notNull(),
    isLive: integer('is_live', { mode: 'boolean' }).notNull().default(true),
  },
  (t) => [index('event_dates_event_idx').on(t.eventId)],
);

export const slots = sqliteTable(
  'slots',
  {
    id: text('id').primaryKey(),
    eventDateId: text('event_date_id')
      .notNull()
      .references(() => eventDates.id, { onDelete: 'cascade' }),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    /**
     * Set when the slot (or its event) was cancelled: nothing more is sold, and its confirmed bookings are
     * cancelled and refunded in bounded batches until none is left (services/bookings).
     */
    cancelledAt: text('cancelled_at'),
  },
  (t) => [
    index('slots_date_idx').on(t.eventDateId),
    index('slots_cancelled_idx').on(t.cancelledAt).where(sql`cancelled_at is not null`),
  ],
);

export const ticketTypes = sqliteTable(
  'ticket_types',
  {
    id: text('id').primaryKey(),
    slotId: text('slot_id')
      .notNull()
      .references(() => slots.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    pricePaise: integer('price_paise').notNull(),
    personAllowedPerTicket: integer('person_allowed_per_ticket').notNull().default(1),
    description: text('description').notNull().default(''),
    isRefundable: integer('is_refundable', { mode: 'boolean' }).notNull().default(false),
    totalTickets: integer('total_tickets').notNull(),
    /** Decremented when seats are held, restored when a hold is released (see services/inventory). */
    availableTickets: integer('available_tickets').notNull(),
    isLive: integer('is_live', { mode: 'boolean' }).notNull().default(true),
    benefits: text('benefits', { mode: 'json' }).$type<string[]>().notNull().default([]),
    position: integer('position').notNull().default(0),
    /** Most tickets of this type one order may take (never above shared/pricing.ts's MAX_TICKETS_PER_TYPE). */
    maxPerOrder: integer('max_per_order').notNull().default(10),
    /** When sales open and close (UTC ISO-8601); null means no limit on that side. */
    saleOpensAt: text('sale_opens_at'),
    saleClosesAt: text('sale_closes_at'),
    /** Shown and sold only to a buyer with an access code that unlocks it (issue 40, ADR 0038). */
    isHidden: integer('is_hidden', { mode: 'boolean' }).notNull().default(false),
    /** Each ticket of this type gets its own QR, name and check-in (issue 40, ADR 0046). */
    perAttendeeTickets: integer('per_attendee_tickets', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [index('ticket_types_slot_idx').on(t.slotId)],
);

/**
 * Which full-text document (the `event_search` FTS5 table, created in its migration) holds an event's
 * searchable text; only published events have one. FTS5 rows are addressed by integer rowid, events by
 * text id, hence this map.
 */
export const eventSearchKeys = sqliteTable('event_search_keys', {
  eventId: text('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  docId: integer('doc_id').notNull().unique(),
});
