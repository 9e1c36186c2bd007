// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import { ACCOUNT_ROLES, type AccountRole } from '../shared/organiser-schemas.ts';
import { openOperatorDatabase } from '../src-server/app-database.ts';
import { loadEnv } from '../src-server/env.ts';
import { setAccountRoleByEmail } from '../src-server/services/roles/set-account-role.ts';

// `npm run user:role -- someone@example.com admin|organiser|none` sets that account's installation-wide
// role in the server's database (DATA_DIR's SQLite, or DATABASE_URL's PostgreSQL) (also while the server runs: the change is one short transaction, and
// the server reads roles per request). Gate staff (per event, /gate) are `npm run user:staff -- <email> --event <id>`.
const [email, role, ...rest] = process.argv.slice(2);
if (!email || !ACCOUNT_ROLES.includes(role as AccountRole) || rest.length > 0) {
  console.error(`Usage: npm run user:role -- <email> ${ACCOUNT_ROLES.join('|')}`);
  process.exit(2);
}

const env = loadEnv();
const database = await openOperatorDatabase(env);
const changed = await setAccountRoleByEmail(
  database.db,
  { email, role: role as AccountRole, grantedBy: null },
  new Date(),
);
await database.close();
if (!changed) {
  console.error(`No account with the e-mail address ${email}. Sign up first, then run this again.`);
  process.exit(1);
}
const what: Record<AccountRole, string> = {
  admin: 'an admin (admin page at /admin)',
  organiser: 'an organiser (console at /organiser)',
  none: 'neither admin nor organiser',
};
console.log(
  changed.previous === role
    ? `${email} was already ${what[role as AccountRole]}.`
    : `${email} is now ${what[role as AccountRole]} (was ${changed.previous}).`,
);
