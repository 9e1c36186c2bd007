import { databaseFile, openDatabase } from '../src-server/db/client.ts';
import { loadEnv } from '../src-server/env.ts';
import { setGateStaff } from '../src-server/services/tickets/gate-staff.ts';

// `npm run user:staff -- someone@example.com` lets that account check tickets in at /check-in;
// `npm run user:staff -- someone@example.com --revoke` takes the right away. Uses DATA_DIR like the server.
const args = process.argv.slice(2);
const revoke = args.includes('--revoke');
const email = args.find((a) => !a.startsWith('--'));
if (!email) {
  console.error('Usage: npm run user:staff -- <email> [--revoke]');
  process.exit(2);
}

const env = loadEnv();
const database = openDatabase(databaseFile(env.DATA_DIR));
const changed = setGateStaff(database.db, email, !revoke, new Date());
database.close();
if (!changed) {
  console.error(`No account with the e-mail address ${email}. Sign up first, then run this again.`);
  process.exit(1);
}
console.log(
  revoke
    ? `${email} is no longer gate staff.`
    : `${email} is now gate staff and can check tickets in at /check-in.`,
);
