import { createHash } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { changes, row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import { textParam } from '../../db/unpeeked-params.ts';
import type { WriteTx } from '../../db/write-transaction.ts';

// Database-backed sessions as in the lucia-auth.com guide: the cookie holds a random token, the
// database holds only its SHA-256, and expiry slides forward while the session is used.

export const SESSION_COOKIE = 'jalsa_session';
const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 30 * DAY_MS;
/** Extend a session's expiry once less than this much is left, so a busy user's row is not rewritten every request. */
const RENEW_WITHIN_MS = 15 * DAY_MS;

/** 20 random bytes (160 bits), base32: the session token that goes in the cookie. */
export function generateSessionToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** The token's SHA-256 in hex, which is what the database keeps. Every signed-in request hashes, so natively. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new session for `userId` on SQLite, at once (test helpers and scripts that sign someone in). */
export function createSession(db: Db | WriteTx, userId: string, now: Date): NewSessionRow {
  return runSync(createSessionSteps(db, userId, now));
}

export interface NewSessionRow {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

/** `createSession` written once for both engines: a step of the transaction that signs someone in. */
export function* createSessionSteps(db: DbOrTx, userId: string, now: Date): Steps<NewSessionRow> {
  const { sessions } = tablesOf(db);
  const token = generateSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  yield* changes(
    db.insert(sessions).values({
      id: sessionIdOf(token),
      userId,
      expiresAt: expiresAt.toISOString(),
      createdAt: now.toISOString(),
    }),
  );
  return { token, sessionId: sessionIdOf(token), expiresAt };
}

/** What every procedure may know about the signed-in person. Never includes secrets. */
export interface SessionUser {
  id: string;
  name: string | null;
  email: string;
}

export interface ValidatedSession {
  sessionId: string;
  user: SessionUser;
  expiresAt: Date;
  /** True when the expiry moved forward and the cookie should be re-sent. */
  renewed: boolean;
}

/** The session of `token` and its user, its expiry slid forward when due; null when none or expired. */
export function validateSessionToken(db: DbOrTx, token: string, now: Date): ValidatedSession | null {
  return runSync(validateSessionSteps(db, token, now));
}

/**
 * `validateSessionToken` written once for both engines (ADR 0045): every request runs it, through
 * `runStatements` (services/accounts/session-user.ts). Each statement stands alone (no transaction):
 * two requests renewing the same session at once both write the same later expiry.
 */
export function* validateSessionSteps(db: DbOrTx, token: string, now: Date): Steps<ValidatedSession | null> {
  const { sessions } = tablesOf(db);
  const sessionId = sessionIdOf(token);
  const found = yield* row(sessionLookup(db), { sessionId });
  if (!found) return null;
  let expiresAt = new Date(found.expiresAt);
  if (now >= expiresAt) {
    yield* changes(db.delete(sessions).where(eq(sessions.id, sessionId)));
    return null;
  }
  let renewed = false;
  if (expiresAt.getTime() - now.getTime() < RENEW_WITHIN_MS) {
    expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    yield* changes(
      db.update(sessions).set({ expiresAt: expiresAt.toISOString() }).where(eq(sessions.id, sessionId)),
    );
    renewed = true;
  }
  return {
    sessionId,
    user: { id: found.id, name: found.name, email: found.email },
    expiresAt,
    renewed,
  };
}

/**
 * The session and its user, built and compiled once per database: every signed-in request runs it, and
 * building the query each time cost more than running it (docs/benchmarks.md).
 */
const sessionLookup = oncePer(prepareSessionLookup);

function prepareSessionLookup(db: DbOrTx) {
  const { sessions, users } = tablesOf(db);
  // The id cast: a join's planner looks at a plain `?` and re-prepares on every binding (unpeeked-params.ts).
  return db
    .select({
      expiresAt: sessions.expiresAt,
      id: users.id,
      name: users.name,
      email: users.email,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, textParam('sessionId')))
    .prepare();
}

/** Signs one browser out: its session row goes (one statement, on either engine). */
export function invalidateSession(db: DbOrTx, sessionId: string): Promise<void> {
  return runStatements(db, (d) => invalidateSessionSteps(d, sessionId));
}

export function* invalidateSessionSteps(db: DbOrTx, sessionId: string): Steps<void> {
  const { sessions } = tablesOf(db);
  yield* changes(db.delete(sessions).where(eq(sessions.id, sessionId)));
}

/** Every session of the account ends (a new password, an address taken over): inside the caller's transaction. */
export function* invalidateUserSessionsSteps(db: DbOrTx, userId: string): Steps<void> {
  const { sessions } = tablesOf(db);
  yield* changes(db.delete(sessions).where(eq(sessions.userId, userId)));
}

/** The Set-Cookie value for a session: HttpOnly, SameSite=Lax, Secure unless served from localhost. */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  const parts = [
    `${SESSION_COOKIE}=${token}`,
    'HttpOnly',
    'SameSite=Lax',
    'Path=/',
    `Expires=${expiresAt.toUTCString()}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function blankSessionCookie(secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=`, 'HttpOnly', 'SameSite=Lax', 'Path=/', 'Max-Age=0'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function readSessionToken(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return rest.join('=') || null;
  }
  return null;
}
