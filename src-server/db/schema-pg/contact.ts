import { integer, pgTable, text } from 'drizzle-orm/pg-core';

/** Messages sent through the Contact Us form. */
export const contactMessages = pgTable('contact_messages', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email').notNull(),
  mobile: text('mobile').notNull(),
  message: text('message').notNull(),
  createdAt: text('created_at').notNull(),
});
