import { eq } from 'drizzle-orm';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { linkTokenId } from './tokens.ts';

/**
 * Whether a reset link would still set a password: its (hashed) token is stored and not expired. The
 * link is a random secret mailed to one address, so the answer tells its holder nothing more than
 * trying it would; resetPassword checks again when the form is sent.
 */
export async function isResetLinkUsable(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  token: string,
): Promise<boolean> {
  const { passwordResetTokens } = tablesOf(deps.db);
  const [found] = await deps.db
    .select({ expiresAt: passwordResetTokens.expiresAt })
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.id, linkTokenId(token)));
  return !!found && new Date(found.expiresAt) > deps.clock.now();
}
