import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { profileSchema } from '../../../shared/auth-schemas.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { unauthorized } from '../../errors.ts';
import { type Account, getAccount } from './account.ts';

/** Saves the profile form (spec §3 Profile form minus e-mail, which changes only through a verified flow). */
export async function updateProfile(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  userId: string,
  input: z.output<typeof profileSchema>,
): Promise<Account> {
  const { users } = tablesOf(deps.db);
  await deps.db
    .update(users)
    .set({
      name: input.name,
      phone: input.phone || null,
      gender: input.gender || null,
      country: input.country || null,
      state: input.state || null,
      about: input.about || null,
      updatedAt: deps.clock.now().toISOString(),
    })
    .where(eq(users.id, userId));
  const account = await getAccount(deps.db, userId);
  if (!account) throw unauthorized();
  return account;
}
