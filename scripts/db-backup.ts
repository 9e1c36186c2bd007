// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BackupFailed, backupDatabase } from '../src-server/db/backup.ts';
import { backupPostgres, redactedUrl } from '../src-server/db/backup-postgres.ts';
import { databaseFile } from '../src-server/db/client.ts';
import { loadEnv } from '../src-server/env.ts';

/**
 * `npm run db:backup [-- <folder>] [--keep N]`: a consistent copy of the live database and its
 * app-secret, safe while the server runs and writes, into `<folder>/jalsa-<UTC time>/` (default
 * DATA_DIR/backups), keeping the newest N backups there (default 14). Copy the folder off the machine
 * (rsync, a mounted volume), or use Litestream for continuous replication (docs/operations.md).
 */
const args = process.argv.slice(2);
const keepAt = args.indexOf('--keep');
const keep = keepAt >= 0 ? Number(args[keepAt + 1]) : 14;
const positional = args.filter((arg, i) => !arg.startsWith('--') && i !== keepAt + 1);
const isPostgresUrl = (arg: string) => /^postgres(ql)?:\/\//.test(arg);
const folderArg = positional.find((arg) => !isPostgresUrl(arg));
if (!Number.isInteger(keep) || keep < 1) {
  console.error(
    'Usage: npm run db:backup -- [folder] [postgres://…] [--keep N]   (N is a whole number, 1 or more)',
  );
  process.exit(2);
}
const env = loadEnv();
const targetDir = path.resolve(folderArg ?? path.join(env.DATA_DIR, 'backups'));
// loadEnv has read .env into the environment; DATABASE_URL is not one of the server's settings yet.
const databaseUrl = positional.find(isPostgresUrl) ?? (process.env.DATABASE_URL || undefined);
if (databaseUrl) {
  if (!isPostgresUrl(databaseUrl)) {
    console.error(
      `DATABASE_URL must start with postgres:// or postgresql:// (it is ${redactedUrl(databaseUrl)}).`,
    );
    process.exit(2);
  }
  try {
    const backup = await backupPostgres({
      databaseUrl,
      dataDir: env.DATA_DIR,
      targetDir,
      keep,
      appSecret: env.APP_SECRET,
    });
    console.log(
      `Backed up PostgreSQL ${backup.serverVersion} at ${redactedUrl(databaseUrl)} to ${backup.folder} (keeping the newest ${keep} in ${targetDir})`,
    );
    if (backup.warning) {
      console.error(backup.warning);
      process.exitCode = 1;
    }
  } catch (err) {
    if (!(err instanceof BackupFailed)) throw err;
    console.error(`${err.message}\nThe earlier backups in ${targetDir} are untouched.`);
    process.exitCode = 1;
  }
  process.exit();
}
const live = new Database(databaseFile(env.DATA_DIR), { fileMustExist: true });
try {
  live.pragma('busy_timeout = 5000');
  const folder = backupDatabase(live, { dataDir: env.DATA_DIR, targetDir, keep });
  console.log(
    `Backed up ${databaseFile(env.DATA_DIR)} to ${folder} (keeping the newest ${keep} in ${targetDir})`,
  );
} catch (err) {
  // A full disk is an operator's problem to read in one line, not a stack trace.
  if (!(err instanceof BackupFailed)) throw err;
  console.error(`${err.message}\nThe earlier backups in ${targetDir} are untouched.`);
  process.exitCode = 1;
} finally {
  live.close();
}
