import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';

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

export function getAccount(db: Pick<Db, 'select'>, userId: string): Account | null {
  const row = db
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
    .where(eq(users.id, userId))
    .get();
  if (!row) return null;
  const { passwordHash, googleId, ...account } = row;
  return { ...account, hasPassword: passwordHash !== null, googleLinked: googleId !== null };
}
