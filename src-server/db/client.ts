import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { backupDatabase } from './backup.ts';
import * as schema from './schema/index.ts';

export type Db = ReturnType<typeof drizzle<typeof schema>>;

/** The database or an open transaction, for helpers that run inside the caller's transaction. */
export type DbOrTx = BaseSQLiteDatabase<'sync', Database.RunResult, typeof schema>;

export interface DatabaseHandle {
  db: Db;
  sqlite: Database.Database;
  close: () => void;
}

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../migrations');

/**
 * Opens (creating if needed) the SQLite file and applies pending migrations.
 * WAL lets readers run beside the single writer; synchronous=NORMAL in WAL mode never corrupts the
 * file and loses at most the last commits on a power cut (docs/operations.md explains the recovery).
 */
export function openDatabase(
  file: string,
  options: {
    /**
     * Before applying migrations to a database that has data, back it up into this folder first: by
     * default `backups/` beside the file, whoever opens it (the server, `npm run db:migrate`, `npm run
     * doctor`, the user scripts), so no upgrade path skips the backup (issue 37). `false`: none.
     */
    backupBeforeMigrating?: string | false;
    log?: (line: string) => void;
  } = {},
): DatabaseHandle {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  cacheStatements(sqlite);
  const db = drizzle(sqlite, { schema });
  const backupDir =
    options.backupBeforeMigrating ?? (file === ':memory:' ? false : path.join(path.dirname(file), 'backups'));
  const pending = backupDir ? pendingMigrations(sqlite) : 0;
  if (backupDir && pending > 0) {
    const folder = backupDatabase(sqlite, {
      dataDir: path.dirname(file),
      targetDir: backupDir,
      keep: 10,
      label: 'before-upgrade',
    });
    (options.log ?? ((line) => process.stderr.write(`${line}\n`)))(
      `backed up the database to ${folder} before applying ${pending} migration(s)`,
    );
  }
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, sqlite, close: () => sqlite.close() };
}

/**
 * Migrations the database has yet to apply, when it already has some applied (a new, empty database has
 * nothing worth backing up).
 */
export function pendingMigrations(sqlite: Database.Database): number {
  const hasJournal = sqlite
    .prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'")
    .get();
  if (!hasJournal) return 0;
  const applied = (sqlite.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }).n;
  const journal = path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json');
  if (applied === 0 || !existsSync(journal)) return 0;
  const known = (JSON.parse(readFileSync(journal, 'utf8')) as { entries: unknown[] }).entries.length;
  return Math.max(0, known - applied);
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, 'jalsa.db');
}

/** How many distinct SQL texts keep their compiled statement (least recently used ones are dropped). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Drizzle compiles every query again (`client.prepare(sql)`) each time it runs; with SQLite that compile
 * was the largest single cost of a reservation (docs/benchmarks.md). The same query builder always
 * produces the same SQL text with `?` parameters, so compiled statements are kept per text and reused.
 * Calls are synchronous, so a statement is never in use twice at once (nothing here uses `.iterate()`);
 * a reused statement is put back into its default row mode, as a fresh one would be.
 */
function cacheStatements(sqlite: Database.Database): void {
  const compile = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached) {
      cache.delete(source);
      cache.set(source, cached);
      if (cached.reader) cached.raw(false).pluck(false).expand(false);
      return cached;
    }
    const statement = compile(source);
    cache.set(source, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return statement;
  }) as Database.Database['prepare'];
}
