import { doublePrecision, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * One row about this installation: the fingerprint of the app secret its tickets are signed with, so a
 * start with another secret (a database restored without its `app-secret`) refuses instead of minting a
 * new one that would make every issued ticket fail at the gate.
 */
export const installation = pgTable('installation', {
  id: integer('id').primaryKey(),
  appSecretFingerprint: text('app_secret_fingerprint').notNull(),
  createdAt: text('created_at').notNull(),
});

/**
 * Installation-wide rules an admin sets on the admin page; one row (id 1), absent until first saved, when
 * the built-in limits apply.
 */
export const platformSettings = pgTable('platform_settings', {
  id: integer('id').primaryKey(),
  /** The most an event's convenience fee may be, in percent (0–20; the editor's own limit is 20). */
  convenienceFeeCap: doublePrecision('convenience_fee_cap').notNull(),
  updatedAt: text('updated_at').notNull(),
  updatedBy: text('updated_by'),
});
