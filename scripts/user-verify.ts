// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import { openOperatorDatabase } from '../src-server/app-database.ts';
import { loadEnv } from '../src-server/env.ts';
import { markEmailVerified } from '../src-server/services/accounts/mark-email-verified.ts';

// `npm run user:verify -- someone@example.com` marks that account's e-mail address verified, as its
// verification link would. For a site on the file mailbox (ALLOW_FILE_MAILBOX=true), whose mail nobody
// receives: an unverified account cannot book. Also while the server runs; uses the server's database (DATA_DIR, or DATABASE_URL).
const [email, ...rest] = process.argv.slice(2);
if (!email || email.startsWith('--') || rest.length > 0) {
  console.error('Usage: npm run user:verify -- <email>');
  process.exit(2);
}

const env = loadEnv();
const database = await openOperatorDatabase(env);
const result = await markEmailVerified(database.db, email, new Date());
await database.close();
if (!result) {
  console.error(`No account with the e-mail address ${email}. Sign up first, then run this again.`);
  process.exit(1);
}
console.log(
  result.alreadyVerified
    ? `${email} was already verified.`
    : `${email} is now verified: this account can book.`,
);
