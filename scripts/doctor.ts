// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import { chooseMailer } from '../src-server/compose-deps.ts';
import { systemClock } from '../src-server/deps.ts';
import { doctorReport, runDoctor } from '../src-server/doctor.ts';
import { EnvSchema, issueLines, readDotEnvInto } from '../src-server/env.ts';
import { createLogger } from '../src-server/logger.ts';

/**
 * `npm run doctor [-- you@example.com]`: checks this configuration end to end (README "Run it for
 * real"): settings, data folder, database and app secret (with DATABASE_URL, the PostgreSQL: version,
 * migrations, pool, pg_trgm, the app secret's recorded fingerprint), Razorpay keys and webhook secret (through the
 * public URL, so run it while the server runs), and a real test mail to the address given (default
 * SUPPORT_EMAIL). Exits 1 if anything needs attention. It never migrates the database.
 */
readDotEnvInto(process.env);
const parsed = EnvSchema.safeParse(process.env);
if (!parsed.success) {
  // Settings the other checks need (PUBLIC_URL, a malformed value) are missing: say which, plainly.
  const { lines, exitCode } = doctorReport([
    {
      name: 'settings',
      ok: false,
      detail: [
        'the other checks run once these are fixed:',
        ...issueLines(parsed.error).map((l) => l.trim()),
      ].join('\n'),
    },
  ]);
  console.log(lines.join('\n'));
  process.exit(exitCode);
}
const env = parsed.data;
const mailTo = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? env.SUPPORT_EMAIL;
const logger = createLogger('silent');
const checks = await runDoctor(process.env, env, {
  mailer: chooseMailer({ env, logger, clock: systemClock }),
  mailTo,
});
const { lines, exitCode } = doctorReport(checks);
console.log(lines.join('\n'));
process.exit(exitCode);
