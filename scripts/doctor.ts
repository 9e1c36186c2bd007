// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import { chooseMailer } from '../src-server/compose-deps.ts';
import { systemClock } from '../src-server/deps.ts';
import { runDoctor } from '../src-server/doctor.ts';
import { loadEnv } from '../src-server/env.ts';
import { createLogger } from '../src-server/logger.ts';

/**
 * `npm run doctor [-- you@example.com]`: checks this configuration end to end (README "Run it for
 * real"): settings, data folder, database and app secret, Razorpay keys and webhook secret (through the
 * public URL, so run it while the server runs), and a real test mail to the address given (default
 * SUPPORT_EMAIL). Exits 1 if anything needs attention.
 */
const env = loadEnv();
const mailTo = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? env.SUPPORT_EMAIL;
const logger = createLogger('silent');
const checks = await runDoctor(process.env, env, {
  mailer: chooseMailer({ env, logger, clock: systemClock }),
  mailTo,
});
for (const check of checks) {
  const [first, ...rest] = check.detail.split('\n');
  console.log(`${check.ok ? '✓' : '✗'} ${check.name}: ${first}`);
  for (const line of rest) console.log(`    ${line}`);
}
const failed = checks.filter((check) => !check.ok).length;
console.log(failed === 0 ? '\nAll checks passed.' : `\n${failed} check(s) need attention.`);
process.exit(failed === 0 ? 0 : 1);
