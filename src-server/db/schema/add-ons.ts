import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { bookings } from './bookings.ts';
import { events } from './catalog.ts';
import { holds } from './payments.ts';

/**
 * A product sold with a ticket (issue 40, ADR 0041): parking, a T-shirt, a food voucher. Its own price
 * (as the event's ticket prices are: with GST included unless the event's prices are "+ GST"), its own
 * GST rate and HSN/SAC code (never the admission slab, never the ₹500 exemption), its own per-order
 * maximum, and optionally only for some ticket types (null: any of the event's).
 */
export const addOns = sqliteTable(
  'add_ons',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    pricePaise: integer('price_paise').notNull(),
    taxRatePercent: integer('tax_rate_percent').notNull(),
    hsnSac: text('hsn_sac').notNull(),
    maxPerOrder: integer('max_per_order').notNull(),
    ticketTypeIds: text('ticket_type_ids', { mode: 'json' }).$type<string[]>(),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('add_ons_event_idx').on(t.eventId)],
);

/**
 * An add-on's variant with its own stock (a T-shirt's size), like pretix's ItemVariation. Every add-on
 * has at least one: one without sizes has a single variant named ''. `available` is taken by the hold's
 * conditional UPDATE and given back wherever the hold or booking gives it back, so available + active
 * holds + confirmed = stock.
 */
export const addOnVariants = sqliteTable(
  'add_on_variants',
  {
    id: text('id').primaryKey(),
    addOnId: text('add_on_id')
      .notNull()
      .references(() => addOns.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    stock: integer('stock').notNull(),
    available: integer('available').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('add_on_variants_add_on_idx').on(t.addOnId)],
);

/**
 * What a hold took of an add-on, priced at Proceed: the unit price and rate as then, and what the line
 * charges (`totalPaise`, its GST included). The rows stay with the hold after it is converted; the
 * booking's own copy is `booking_add_ons`.
 */
export const holdAddOns = sqliteTable(
  'hold_add_ons',
  {
    holdId: text('hold_id')
      .notNull()
      .references(() => holds.id, { onDelete: 'cascade' }),
    variantId: text('variant_id')
      .notNull()
      .references(() => addOnVariants.id),
    addOnId: text('add_on_id').notNull(),
    quantity: integer('quantity').notNull(),
    pricePaise: integer('price_paise').notNull(),
    taxRatePercent: integer('tax_rate_percent').notNull(),
    totalPaise: integer('total_paise').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.holdId, t.variantId] })],
);

/**
 * A booking's add-ons, as sold (names, code, price and rate copied: an edit later never changes what
 * was bought), and whether gate staff handed them over (`given_at`, `given_by`; once).
 */
export const bookingAddOns = sqliteTable(
  'booking_add_ons',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    addOnId: text('add_on_id').notNull(),
    variantId: text('variant_id').notNull(),
    name: text('name').notNull(),
    variantName: text('variant_name').notNull(),
    hsnSac: text('hsn_sac').notNull(),
    quantity: integer('quantity').notNull(),
    pricePaise: integer('price_paise').notNull(),
    taxRatePercent: integer('tax_rate_percent').notNull(),
    totalPaise: integer('total_paise').notNull(),
    position: integer('position').notNull(),
    /** Set when the booking is cancelled and the stock went back (once). */
    returnedAt: text('returned_at'),
    givenAt: text('given_at'),
    givenByUserId: text('given_by_user_id'),
  },
  (t) => [index('booking_add_ons_booking_idx').on(t.bookingId)],
);
