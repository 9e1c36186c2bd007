import { ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { setAccountRoleByEmail } from './set-account-role.ts';

/**
 * The admin page's direct grant: makes an account an organiser (or takes the right away) without a
 * request. Admins are not changed here; `npm run user:role` does that on the server.
 */
export async function grantOrganiserRole(
  db: Db,
  change: { email: string; role: 'organiser' | 'none'; adminId: string },
  now: Date,
): Promise<{ userId: string; role: 'organiser' | 'none' }> {
  const result = await setAccountRoleByEmail(
    db,
    { email: change.email, role: change.role, grantedBy: change.adminId, keepAdmins: true },
    now,
  );
  if (!result) throw notFound(ORGANISER_MESSAGES.noAccount);
  return { userId: result.userId, role: change.role };
}
