import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { COUNTRIES, GENDERS } from '../../../shared/auth-schemas.ts';

/** A person's account (spec §3 User) plus the profile fields of §3 Profile form. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  name: text('name'),
  /** Stored lower-cased; unique. */
  email: text('email').notNull().unique(),
  phone: text('phone'),
  imageUrl: text('image_url'),
  isEmailVerified: boolean('is_email_verified').notNull().default(false),
  /** argon2id; null for accounts created through Google that never set a password. */
  passwordHash: text('password_hash'),
  googleId: text('google_id').unique(),
  bookingIdsList: jsonb('booking_ids_list').$type<string[]>().notNull().default([]),
  gender: text('gender').$type<(typeof GENDERS)[number]>(),
  country: text('country').$type<(typeof COUNTRIES)[number]>(),
  state: text('state'),
  about: text('about'),
  /**
   * Unused since roles per event (ADR 0015): gate staff belong to an event's team. Kept because
   * migrations only add (a previous release's database has it); nothing reads or writes it.
   */
  isStaff: boolean('is_staff').notNull().default(false),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/** Database-backed sessions (lucia-auth.com guide): the id is the SHA-256 of the cookie's token. */
export const sessions = pgTable(
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

/** Single-use password reset links: only the SHA-256 of the token is stored; 30-minute life. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId, t.createdAt)],
);

/** E-mail verification links sent at sign-up: hashed like reset tokens, for the address they were sent to. */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('email_verification_tokens_user_idx').on(t.userId)],
);

/**
 * Sign-in attempts that did not succeed, counted per e-mail address and per client address over a
 * sliding window (services/accounts/login-throttle.ts). A row is written when an attempt is let in,
 * before its password is checked, and deleted again if it succeeds. The e-mail need not belong to an
 * account.
 */
export const failedLogins = pgTable(
  'failed_logins',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('failed_logins_email_idx').on(t.email, t.createdAt),
    index('failed_logins_ip_idx').on(t.ip, t.createdAt),
  ],
);
