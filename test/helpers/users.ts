import { randomUUID } from 'node:crypto';
import { users } from '../../src-server/db/schema/accounts.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import type { TestApp } from './test-app.ts';

let counter = 0;

/**
 * Inserts a user directly and opens a session for them, returning the Cookie header that signs in as
 * them. For tests of other areas; the accounts tests sign up through the real procedures instead.
 * The address counts as verified, as Proceed requires (issue 19); `{ isEmailVerified: false }` for the
 * tests of that rule.
 */
export function createSignedInUser(
  t: TestApp,
  overrides: Partial<typeof users.$inferInsert> = {},
): { userId: string; email: string; name: string; cookie: string } {
  counter += 1;
  const now = t.clock.now().toISOString();
  const userId = overrides.id ?? randomUUID();
  const email = overrides.email ?? `buyer${counter}-${userId.slice(0, 8)}@example.com`;
  const name = overrides.name ?? `Test Buyer ${counter}`;
  t.deps.db
    .insert(users)
    .values({
      id: userId,
      email,
      name,
      phone: '9876543210',
      isEmailVerified: true,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    })
    .run();
  const { token } = createSession(t.deps.db, userId, t.clock.now());
  return { userId, email, name, cookie: `${SESSION_COOKIE}=${token}` };
}
