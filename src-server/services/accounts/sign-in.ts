import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { MESSAGES, type signInSchema } from '../../../shared/auth-schemas.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { tooManyRequests, unauthorized } from '../../errors.ts';
import { claimSignInAttempt, clearFailedSignInsSteps } from './login-throttle.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { createSessionSteps, invalidateSessionSteps } from './sessions.ts';
import type { NewSession } from './sign-up.ts';

/**
 * Checks e-mail and password and opens a fresh session. An unknown e-mail and a wrong password answer
 * alike ('Invalid email or password'), in about the same time, so the answer does not reveal who has
 * an account. A session the browser already had is ended, so a planted cookie never becomes signed in.
 */
export async function signIn(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  input: z.output<typeof signInSchema>,
  client: { ip: string; previousSessionId: string | null },
): Promise<NewSession> {
  // Counted as a failure from here on; only a correct password takes it back (login-throttle.ts).
  if (!(await claimSignInAttempt(deps.db, input.email, client.ip, deps.clock.now()))) {
    throw tooManyRequests(MESSAGES.tooManyAttempts);
  }
  const { users } = tablesOf(deps.db);
  const [user] = await deps.db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, input.email));
  const ok = user?.passwordHash
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!user || !ok) throw unauthorized(MESSAGES.invalidCredentials);
  const now = deps.clock.now();
  return runnerFor(deps.db).write(function* (tx) {
    yield* clearFailedSignInsSteps(tx, input.email);
    if (client.previousSessionId) yield* invalidateSessionSteps(tx, client.previousSessionId);
    const session = yield* createSessionSteps(tx, user.id, now);
    return { userId: user.id, token: session.token, expiresAt: session.expiresAt };
  });
}
