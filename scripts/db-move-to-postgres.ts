// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import { existsSync, readFileSync } from 'node:fs';
import { appSecretFile } from '../src-server/app-secret.ts';
import { databaseFile } from '../src-server/db/client.ts';
import { MoveRefusal, moveToPostgres } from '../src-server/db/move-to-postgres.ts';
import { loadEnv } from '../src-server/env.ts';

// `npm run db:move-to-postgres -- <DATABASE_URL>`: copies this installation's SQLite database (DATA_DIR's,
// as the server finds it) into an empty PostgreSQL database (docs/operations.md, "Moving to PostgreSQL").
// Stop the server and back up first; the SQLite file is only read.
const databaseUrl = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
  console.error('Usage: npm run db:move-to-postgres -- postgres://user:password@host:5432/database');
  process.exit(2);
}
const env = loadEnv();
const file = databaseFile(env.DATA_DIR);
const secretFile = appSecretFile(env.DATA_DIR);
const appSecret =
  env.APP_SECRET ?? (existsSync(secretFile) ? readFileSync(secretFile, 'utf8').trim() : undefined);
try {
  const report = await moveToPostgres({
    sqliteFile: file,
    databaseUrl,
    appSecret,
    log: (line) => console.error(line),
  });
  const rows = report.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(
    `Moved ${file} into PostgreSQL: ${report.tables.length} tables, ${rows} rows, ${report.searchRows} search documents; row counts and the inventory invariant verified on the target.`,
  );
  console.log(
    report.appSecretFingerprint
      ? `The target records this installation's app secret: start every server with APP_SECRET set to it (${env.APP_SECRET ? 'APP_SECRET' : secretFile}).`
      : 'No app secret was recorded (none in the database, none at hand): the first server started on PostgreSQL adopts its APP_SECRET.',
  );
} catch (error) {
  // A refusal is the operator's to read in a line or two, not a stack trace.
  if (!(error instanceof MoveRefusal)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
