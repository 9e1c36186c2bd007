// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BackupFailed, backupDatabase } from '../src-server/db/backup.ts';
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
const folderArg = args.find((arg, i) => !arg.startsWith('--') && i !== keepAt + 1);
if (!Number.isInteger(keep) || keep < 1) {
  console.error('Usage: npm run db:backup -- [folder] [--keep N]   (N is a whole number, 1 or more)');
  process.exit(2);
}
const env = loadEnv();
const targetDir = path.resolve(folderArg ?? path.join(env.DATA_DIR, 'backups'));
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
