import { createHmac } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { writeAccountRole } from './set-account-role.ts';

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
  return writeTransaction(db, (tx) => {
    const at = now.toISOString();
    tx.insert(users)
      .values({ ...DEMO_ORGANISER, isEmailVerified: true, createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .run();
    const id = tx.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ORGANISER.email)).get()!.id;
    writeAccountRole(tx, id, 'organiser', null, now);
    return id;
  });
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
  db.insert(users)
    .values({ ...DEMO_ADMIN, isEmailVerified: true, createdAt: at, updatedAt: at })
    .onConflictDoNothing()
    .run();
  const admin = db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email)).get()!;
  writeAccountRole(db, admin.id, 'admin', null, now);

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
    db.update(users)
      .set({ passwordHash, updatedAt: at })
      .where(and(eq(users.email, signIn.email), isNull(users.passwordHash)))
      .run();
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
