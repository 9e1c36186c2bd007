import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const GENDERS = ['male', 'female', 'other'] as const;
export const COUNTRIES = ['india', 'us', 'uk'] as const;

/** A person's account (spec §3 User) plus the profile fields of §3 Profile form. */
export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  name: text('name'),
  /** Stored lower-cased; unique. */
  email: text('email').notNull().unique(),
  phone: text('phone'),
  imageUrl: text('image_url'),
  isEmailVerified: integer('is_email_verified', { mode: 'boolean' }).notNull().default(false),
  /** argon2id; null for accounts created through Google that never set a password. */
  passwordHash: text('password_hash'),
  googleId: text('google_id').unique(),
  bookingIdsList: text('booking_ids_list', { mode: 'json' }).$type<string[]>().notNull().default([]),
  gender: text('gender').$type<(typeof GENDERS)[number]>(),
  country: text('country').$type<(typeof COUNTRIES)[number]>(),
  state: text('state'),
  about: text('about'),
  /** Gate staff may verify tickets (set by `npm run user:staff`). */
  isStaff: integer('is_staff', { mode: 'boolean' }).notNull().default(false),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/** Database-backed sessions (lucia-auth.com guide): the id is the SHA-256 of the cookie's token. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);
