import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema/index.ts';

export type Db = ReturnType<typeof drizzle<typeof schema>>;

export interface DatabaseHandle {
  db: Db;
  sqlite: Database.Database;
  close: () => void;
}

const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../migrations');

/**
 * Opens (creating if needed) the SQLite file and applies pending migrations.
 * WAL lets readers run beside the single writer; synchronous=NORMAL in WAL mode never corrupts the
 * file and loses at most the last commits on a power cut (docs/operations.md explains the recovery).
 */
export function openDatabase(file: string): DatabaseHandle {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, sqlite, close: () => sqlite.close() };
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, 'jalsa.db');
}
