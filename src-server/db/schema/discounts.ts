import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { DiscountKind } from '../../../shared/discount-schemas.ts';
import { users } from './accounts.ts';
import { events } from './catalog.ts';
import { holds } from './payments.ts';

/**
 * An event's discount code (issue 40): a percentage or a fixed amount off each ticket's price, before
 * tax, for the chosen ticket types (all when null), within a window and up to its limits. `uses` counts
 * the holds and bookings that carry it now: taken under Proceed's write lock, given back when the hold
 * is released unpaid or the booking is cancelled (services/discounts).
 */
export const discountCodes = sqliteTable(
  'discount_codes',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    /** As the organiser typed it, for display. */
    code: text('code').notNull(),
    /** Lower-cased: what a buyer's code is matched on (codes are case-insensitive). */
    codeKey: text('code_key').notNull(),
    kind: text('kind').$type<DiscountKind>().notNull(),
    /** Whole percent off each ticket, 1–100 (kind 'percent'). */
    percentOff: integer('percent_off'),
    /** Paise off each ticket, never below a price of zero (kind 'fixed'). */
    amountOffPaise: integer('amount_off_paise'),
    /** The ticket types it applies to; null: every type of the event. */
    ticketTypeIds: text('ticket_type_ids', { mode: 'json' }).$type<string[]>(),
    /** The hidden ticket types it shows and lets the buyer hold (an access code, ADR 0038); null: none. */
    unlocksTicketTypeIds: text('unlocks_ticket_type_ids', { mode: 'json' }).$type<string[]>(),
    validFrom: text('valid_from'),
    validUntil: text('valid_until'),
    /** Orders that may carry it at once; null: no limit. */
    maxUses: integer('max_uses'),
    /** Orders one buyer's account may carry it on; null: no limit. */
    maxUsesPerBuyer: integer('max_uses_per_buyer'),
    uses: integer('uses').notNull().default(0),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('discount_codes_event_key_idx').on(t.eventId, t.codeKey)],
);

/**
 * The code a hold was priced with, and what it took off, as holds made before 0.3 kept it: their rows
 * were copied onto the holds' own `discount_*` columns by the `hold_discount_columns` migration, which is where a code's use
 * lives now (written by Proceed, read by every rule). Kept, not written, so an older release still
 * opens the database.
 */
export const holdDiscounts = sqliteTable(
  'hold_discounts',
  {
    holdId: text('hold_id')
      .primaryKey()
      .references(() => holds.id, { onDelete: 'cascade' }),
    discountCodeId: text('discount_code_id')
      .notNull()
      .references(() => discountCodes.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    /** The whole order's discount, before tax. */
    discountPaise: integer('discount_paise').notNull(),
    createdAt: text('created_at').notNull(),
    returnedAt: text('returned_at'),
  },
  // A buyer's uses of one code (the per-buyer limit, under the write lock).
  (t) => [index('hold_discounts_code_user_idx').on(t.discountCodeId, t.userId)],
);
