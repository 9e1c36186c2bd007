import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from '../src-server/db/client.ts';
import { loadEnv } from '../src-server/env.ts';

/**
 * `npm run db:backup [-- target-file]`: a consistent copy of the live database through SQLite's online
 * backup API, safe while the server is running and writing. Default target:
 * DATA_DIR/backups/jalsa-<UTC timestamp>.db
 */
const env = loadEnv();
const source = databaseFile(env.DATA_DIR);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const target = path.resolve(process.argv[2] ?? path.join(env.DATA_DIR, 'backups', `jalsa-${stamp}.db`));
mkdirSync(path.dirname(target), { recursive: true });

const db = new Database(source, { readonly: true, fileMustExist: true });
try {
  await db.backup(target);
  const check = new Database(target, { readonly: true });
  const integrity = check.pragma('integrity_check', { simple: true });
  check.close();
  if (integrity !== 'ok') throw new Error(`backup failed its integrity check: ${String(integrity)}`);
  console.log(`Backed up ${source} to ${target}`);
} finally {
  db.close();
}
