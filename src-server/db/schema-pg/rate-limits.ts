import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Requests counted against a rate limit (services/rate-limits/rate-limits.ts): one row per request let
 * through, per limit it counts against, kept until its window has passed. `key` is what the limit
 * counts by: an e-mail address or a client address.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Which limit, e.g. `sign-up/client`. */
    limitName: text('limit_name').notNull(),
    key: text('key').notNull(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [
    index('rate_limit_hits_key_idx').on(t.limitName, t.key, t.expiresAt),
    index('rate_limit_hits_expiry_idx').on(t.expiresAt),
  ],
);
