import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Messages sent through the Contact Us form. */
export const contactMessages = sqliteTable('contact_messages', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email').notNull(),
  mobile: text('mobile').notNull(),
  message: text('message').notNull(),
  createdAt: text('created_at').notNull(),
});
