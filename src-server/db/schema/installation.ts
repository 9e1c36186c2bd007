import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * One row about this installation: the fingerprint of the app secret its tickets are signed with, so a
 * start with another secret (a database restored without its `app-secret`) refuses instead of minting a
 * new one that would make every issued ticket fail at the gate.
 */
export const installation = sqliteTable('installation', {
  id: integer('id').primaryKey(),
  appSecretFingerprint: text('app_secret_fingerprint').notNull(),
  createdAt: text('created_at').notNull(),
});
