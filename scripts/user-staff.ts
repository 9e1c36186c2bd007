// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import { openOperatorDatabase } from '../src-server/app-database.ts';
import { loadEnv } from '../src-server/env.ts';
import { setGateStaff } from '../src-server/services/tickets/gate-staff.ts';

// `npm run user:staff -- someone@example.com --event <eventId>` puts that account on the event's team as
// gate staff (it can then run that event's gate at /gate); `--revoke` takes the role away. Gate rights
// are per event; the organiser console's team page does the same by invitation. Uses the server's database (DATA_DIR, or DATABASE_URL).
const args = process.argv.slice(2);
const revoke = args.includes('--revoke');
const eventAt = args.indexOf('--event');
const eventId = eventAt >= 0 ? args[eventAt + 1] : undefined;
const email = args.find((a, i) => !a.startsWith('--') && i !== eventAt + 1);
if (!email || !eventId) {
  console.error('Usage: npm run user:staff -- <email> --event <eventId> [--revoke]');
  process.exit(2);
}

const env = loadEnv();
const database = await openOperatorDatabase(env);
const result = await setGateStaff(database.db, email, eventId, !revoke, new Date());
await database.close();
if (result === 'no-account') {
  console.error(`No account with the e-mail address ${email}. Sign up first, then run this again.`);
  process.exit(1);
}
if (result === 'no-event') {
  console.error(`No event with the id ${eventId}.`);
  process.exit(1);
}
console.log(
  revoke
    ? `${email} is no longer gate staff at ${eventId}.`
    : `${email} is now gate staff at ${eventId} and can scan its tickets at /gate.`,
);
