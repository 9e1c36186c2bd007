import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';

/** What the owner may see of their own account: the spec §3 User and Profile fields, never secrets. */
export interface Account {
  id: string;
  name: string | null;
  email: string;
  phone: string | null;
  imageUrl: string | null;
  isEmailVerified: boolean;
  gender: 'male' | 'female' | 'other' | null;
  country: 'india' | 'us' | 'uk' | null;
  state: string | null;
  about: string | null;
  bookingIdsList: string[];
  /** False for an account created through Google that has never set a password. */
  hasPassword: boolean;
  googleLinked: boolean;
  updatedAt: string;
}

export async function getAccount(db: DbOrTx, userId: string): Promise<Account | null> {
  const found = await runStatements(db, (d) => row(accountLookup(d), { userId }));
  if (!found) return null;
  const { passwordHash, googleId, ...account } = found;
  return { ...account, hasPassword: passwordHash !== null, googleLinked: googleId !== null };
}

/**
 * Built once per database, like the session lookup: `auth.me` runs on every page load, and building
 * this select cost more than running it (35 µs of 115 per call, issue 21).
 */
const accountLookup = oncePer((db: DbOrTx) => {
  const { users } = tablesOf(db);
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      imageUrl: users.imageUrl,
      isEmailVerified: users.isEmailVerified,
      gender: users.gender,
      country: users.country,
      state: users.state,
      about: users.about,
      bookingIdsList: users.bookingIdsList,
      passwordHash: users.passwordHash,
      googleId: users.googleId,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare();
});
