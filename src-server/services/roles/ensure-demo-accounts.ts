import { createHmac } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { writeAccountRoleSteps } from './set-account-role.ts';

/** Owns the demo catalogue. Migration 0004 creates the same account for databases made before owners. */
export const DEMO_ORGANISER = {
  id: 'demo-organiser',
  email: 'organiser@demo.jalsa.local',
  name: 'Jalsa Demo Organiser',
} as const;

/** Exists only in development, to try the admin page. */
export const DEMO_ADMIN = {
  id: 'demo-admin',
  email: 'admin@demo.jalsa.local',
  name: 'Jalsa Demo Admin',
} as const;

/**
 * Creates the demo organiser (no password: nobody can sign in as it) if it is missing, with the
 * organiser role, and returns its id. The demo seed makes it the owner of every demo event.
 */
export function ensureDemoOrganiser(db: Db, now: Date): Promise<string> {
  return runnerFor(db).write((tx) => ensureDemoAccountSteps(tx, DEMO_ORGANISER, 'organiser', now));
}

/** The demo account (made if missing, with no password) and its role; returns its id. */
function* ensureDemoAccountSteps(
  tx: DbOrTx,
  account: typeof DEMO_ORGANISER | typeof DEMO_ADMIN,
  role: 'organiser' | 'admin',
  now: Date,
): Steps<string> {
  const { users } = tablesOf(tx);
  const at = now.toISOString();
  yield* changes(
    tx
      .insert(users)
      .values({ ...account, isEmailVerified: true, createdAt: at, updatedAt: at })
      .onConflictDoNothing(),
  );
  const id = (yield* row(tx.select({ id: users.id }).from(users).where(eq(users.email, account.email))))!.id;
  yield* writeAccountRoleSteps(tx, id, role, null, now);
  return id;
}

export interface DemoSignIn {
  role: 'admin' | 'organiser';
  email: string;
  password: string;
}

/**
 * Development only: gives the demo admin and the demo organiser a password, so a developer can try the
 * console and the admin page at once. Each password is derived from the installation's app secret, so
 * it is the same at every start (and can be printed again) yet differs between installations. An
 * account that already has a password keeps it.
 */
export async function ensureDemoSignIns(db: Db, appSecret: string, now: Date): Promise<DemoSignIn[]> {
  const at = now.toISOString();
  await ensureDemoOrganiser(db, now);
  await runnerFor(db).write((tx) => ensureDemoAccountSteps(tx, DEMO_ADMIN, 'admin', now));

  const signIns: DemoSignIn[] = [
    { role: 'admin', email: DEMO_ADMIN.email, password: demoPassword(appSecret, DEMO_ADMIN.email) },
    {
      role: 'organiser',
      email: DEMO_ORGANISER.email,
      password: demoPassword(appSecret, DEMO_ORGANISER.email),
    },
  ];
  for (const signIn of signIns) {
    const passwordHash = await hashPassword(signIn.password);
    const { users } = tablesOf(db);
    await db
      .update(users)
      .set({ passwordHash, updatedAt: at })
      .where(and(eq(users.email, signIn.email), isNull(users.passwordHash)));
  }
  return signIns;
}

/** The start-up line that tells a developer how to sign in as the demo accounts. */
export function demoSignInNotice(signIns: DemoSignIn[]): string {
  const accounts = signIns.map((s) => `${s.role} ${s.email} / ${s.password}`);
  return `Demo sign-in (development only; a password you changed stays yours): ${accounts.join('; ')}`;
}

function demoPassword(appSecret: string, email: string): string {
  return `demo-${createHmac('sha256', appSecret).update(`demo-sign-in:${email}`).digest('base64url').slice(0, 10)}`;
}
