import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/auth-schemas.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, conflict } from '../../errors.ts';
import { createSessionSteps, invalidateUserSessionsSteps } from './sessions.ts';
import type { NewSession } from './sign-up.ts';

/** What Google's ID token tells us about the person (OpenID Connect claims). */
export interface GoogleProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
}

/**
 * Signs in with a Google identity: the account already linked to it; else the account with the same
 * e-mail, which gets linked (Google has verified the address); else a new account. If the matching
 * account had never verified its address, whoever chose its password never proved they own the mailbox,
 * so the password and every session are removed (the owner can set a password with a reset link).
 */
export function signInWithGoogle(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  profile: GoogleProfile,
): Promise<NewSession> {
  const now = deps.clock.now();
  const email = profile.email.trim().toLowerCase();
  return runnerFor(deps.db).write(function* (tx) {
    const { users } = tablesOf(tx);
    const linked = yield* row(tx.select({ id: users.id }).from(users).where(eq(users.googleId, profile.sub)));
    let userId = linked?.id;
    if (!userId) {
      if (!profile.emailVerified) throw badRequest(MESSAGES.googleEmailUnverified);
      const existing = yield* row(
        tx
          .select({ id: users.id, googleId: users.googleId, isEmailVerified: users.isEmailVerified })
          .from(users)
          .where(eq(users.email, email)),
      );
      if (existing) {
        if (existing.googleId) throw conflict(MESSAGES.googleOtherAccount);
        if (!existing.isEmailVerified) yield* invalidateUserSessionsSteps(tx, existing.id);
        yield* changes(
          tx
            .update(users)
            .set({
              googleId: profile.sub,
              isEmailVerified: true,
              ...(existing.isEmailVerified ? {} : { passwordHash: null }),
              updatedAt: now.toISOString(),
            })
            .where(eq(users.id, existing.id)),
        );
        userId = existing.id;
      } else {
        userId = randomUUID();
        yield* changes(
          tx.insert(users).values({
            id: userId,
            name: profile.name,
            email,
            phone: null,
            imageUrl: null,
            isEmailVerified: true,
            passwordHash: null,
            googleId: profile.sub,
            bookingIdsList: [],
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          }),
        );
      }
    }
    const session = yield* createSessionSteps(tx, userId, now);
    return { userId, token: session.token, expiresAt: session.expiresAt };
  });
}
