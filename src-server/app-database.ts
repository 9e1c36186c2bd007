import path from 'node:path';
import type Database from 'better-sqlite3';
import { checkpointOffTheRequestPath } from './db/checkpoints.ts';
import { type Db, databaseFile, openDatabase } from './db/client.ts';
import { pgJobLeadership } from './db/engine/pg-job-leader.ts';
import { openPostgres, type PgDb } from './db/engine/postgres.ts';
import { writesAlongsideOtherProcesses } from './db/write-when-free.ts';
import type { Env } from './env.ts';
import type { JobLeadership } from './jobs.ts';
import type { Logger } from './logger.ts';

/**
 * The database the app runs on, as the composition root chose it (ADR 0035): the SQLite file in
 * DATA_DIR, or the PostgreSQL of DATABASE_URL that several servers share. Services take `db` and pick
 * their engine's path from it (`isPostgres`, `runnerFor`, `tablesOf`); what only one engine has (SQLite's
 * checkpoints, PostgreSQL's job leadership) stays here.
 */
export interface AppDatabase {
  engine: 'sqlite' | 'postgres';
  /** PostgreSQL's database typed as the app's `Db`, as the services take it. */
  db: Db;
  /** SQLite's connection; on PostgreSQL a stand-in that refuses every use (`noSqliteOnPostgres`). */
  sqlite: Database.Database;
  /** Who runs each background job now: this process on SQLite, the job's leader on PostgreSQL. */
  leads: JobLeadership;
  /** Starts what a serving process keeps doing besides requests (SQLite's checkpoints); returns its stop. */
  startUpkeep: () => () => void;
  /** Gives up every job's lead and closes the connections. */
  close: () => Promise<void>;
  /** The same at once, for a process about to end (the cluster's last words): nothing awaited. */
  closeNow: () => void;
}

export interface OpenOptions {
  /**
   * The first opening at this start (the single process, or the cluster's primary): SQLite's file is
   * backed up before pending migrations; later ones (a worker's) open the migrated file alongside
   * other processes. PostgreSQL applies pending migrations on every opening (under an advisory lock,
   * `openPostgres`, so servers starting at once apply each migration once).
   */
  first: boolean;
  logger: Logger;
}

export async function openAppDatabase(env: Env, options: OpenOptions): Promise<AppDatabase> {
  return env.DATABASE_URL ? openOnPostgres(env.DATABASE_URL, env, options) : openOnSqlite(env, options);
}

function openOnSqlite(env: Env, { first, logger }: OpenOptions): AppDatabase {
  const handle = first
    ? openDatabase(databaseFile(env.DATA_DIR), {
        backupBeforeMigrating: path.join(env.DATA_DIR, 'backups'),
        log: (line) => logger.info(line),
      })
    : openDatabase(databaseFile(env.DATA_DIR));
  if (!first) writesAlongsideOtherProcesses(handle.sqlite);
  return {
    engine: 'sqlite',
    db: handle.db,
    sqlite: handle.sqlite,
    // One process runs the jobs (with WEB_CONCURRENCY, the cluster starts them in worker 0 only).
    leads: () => true,
    startUpkeep: () => checkpointOffTheRequestPath(handle.sqlite),
    close: async () => handle.close(),
    closeNow: handle.close,
  };
}

async function openOnPostgres(url: string, env: Env, { logger }: OpenOptions): Promise<AppDatabase> {
  const db: PgDb = await openPostgres(url, {
    poolSize: env.DATABASE_POOL_SIZE,
    onIdleError: (err) =>
      logger.warn({ err }, 'database connection ended while idle: the next query opens another'),
  });
  const leadership = pgJobLeadership(db.$client);
  // Said once per change, so an operator reading several servers' logs sees which one runs each job.
  const led = new Set<string>();
  const leads = async (job: string) => {
    const now = await leadership.leads(job);
    if (now !== led.has(job)) {
      if (now) led.add(job);
      else led.delete(job);
      logger.info({ job }, now ? 'this server now runs the job' : 'this server no longer runs the job');
    }
    return now;
  };
  let closing: Promise<void> | undefined;
  const close = () => {
    // The lead's connection first: the pool's end waits for every checked-out connection.
    closing ??= leadership.close().then(() => db.$client.end());
    return closing;
  };
  return {
    engine: 'postgres',
    db: db as unknown as Db,
    sqlite: noSqliteOnPostgres(),
    leads,
    // No checkpoints, WAL or group commit to keep: the PostgreSQL server does its own.
    startUpkeep: () => () => {},
    close,
    closeNow: () => {
      // The process ends right after: its sockets close with it, and the job locks with them.
      void close().catch(() => {});
    },
  };
}

/**
 * What `deps.sqlite` is on PostgreSQL: every use throws, naming it, so a path written for SQLite alone
 * fails loudly instead of reading some other database. The few that remain check `isPostgres(deps.db)`
 * first (or are named in docs/operations.md as SQLite-only).
 */
export function noSqliteOnPostgres(): Database.Database {
  return new Proxy({} as Database.Database, {
    get(_target, property) {
      throw new Error(
        `deps.sqlite.${String(property)} used on PostgreSQL (DATABASE_URL is set): this path is SQLite-only`,
      );
    },
  });
}

/**
 * An operator script's database (`npm run user:role`, `user:verify`, `user:staff`, `db:migrate`): the
 * one the server runs on, so on a PostgreSQL installation the account is changed there and not in a
 * SQLite file in DATA_DIR that no server reads. Migrated on opening, as the server does.
 */
export async function openOperatorDatabase(env: Env): Promise<{ db: Db; close: () => Promise<void> }> {
  if (env.DATABASE_URL) {
    const db = await openPostgres(env.DATABASE_URL, { poolSize: 1 });
    return { db: db as unknown as Db, close: () => db.$client.end() };
  }
  const handle = openDatabase(databaseFile(env.DATA_DIR), { log: (line) => console.error(line) });
  return { db: handle.db, close: async () => handle.close() };
}
