import { existsSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import type { PgDb } from '../../db/engine/postgres.ts';
import { isPostgres } from '../../db/engine/reads.ts';
import type { AppDeps } from '../../deps.ts';

/** What an operator's tools read about the site, measured in one go (a few indexed counts and a statfs). */
export interface SiteFigures {
  databaseOk: boolean;
  diskFreeBytes: number;
  diskSizeBytes: number;
  databaseBytes: number;
  /** Pending mail, transactional (confirmations, tickets, resets) and bulk (Contact Us copies). */
  mailPending: { transactional: number; bulk: number };
  /**
   * Transactional mail whose time has come, and how long the oldest of it has waited: a bulk backlog
   * (Contact Us copies) may wait, a confirmation should not.
   */
  mailDue: number;
  mailOldestDueSeconds: number;
  /** Mail given up after its retries (docs/operations.md says how to re-queue it). */
  mailFailed: number;
  /** Holds past their expiry that the sweeper (every 15 s) should long have released. */
  holdsOverdue: number;
  /** Sign-ups and Contact Us messages in the last hour, from everyone, against their hourly totals. */
  anonymousWrites: { signUps: number; contactMessages: number };
}

export type SitePart = 'database' | 'disk' | 'mail' | 'jobs';

/** Mail due this long and still unsent means the sender or the provider is stuck. */
export const MAIL_STUCK_SECONDS = 15 * 60;
/** Holds expired this long and still active mean the sweeper has stopped. */
export const HOLDS_STALE_MS = 2 * 60_000;
const MB = 1024 * 1024;

/**
 * The figures, from the engine the app runs on (ADR 0045): SQLite's prepared statements as before, or
 * the same counts on PostgreSQL (whose counts come back as text, hence `Number`).
 */
export async function measureSite(
  deps: Pick<AppDeps, 'db' | 'sqlite' | 'env' | 'clock'>,
): Promise<SiteFigures> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const disk = diskOf(deps.env.DATA_DIR);
  const figures: SiteFigures = {
    databaseOk: true,
    diskFreeBytes: disk.free,
    diskSizeBytes: disk.size,
    // PostgreSQL's size is its server's to tell, below (DATA_DIR holds no database file there).
    databaseBytes: isPostgres(deps.db) ? 0 : databaseBytes(deps.env.DATA_DIR),
    mailPending: { transactional: 0, bulk: 0 },
    mailDue: 0,
    mailOldestDueSeconds: 0,
    mailFailed: 0,
    holdsOverdue: 0,
    anonymousWrites: { signUps: 0, contactMessages: 0 },
  };
  try {
    const staleAt = new Date(now.getTime() - HOLDS_STALE_MS).toISOString();
    const counts = isPostgres(deps.db)
      ? await countsOnPostgres(deps.db as unknown as PgDb, at, staleAt)
      : countsOnSqlite(deps.sqlite, at, staleAt);
    for (const row of counts.pendingByPriority) {
      if (row.priority === 0) figures.mailPending.transactional += row.n;
      else figures.mailPending.bulk += row.n;
    }
    figures.mailDue = counts.due.n;
    figures.mailOldestDueSeconds = counts.due.oldest
      ? Math.max(0, Math.round((now.getTime() - Date.parse(counts.due.oldest)) / 1000))
      : 0;
    figures.mailFailed = counts.failed;
    figures.holdsOverdue = counts.holdsOverdue;
    figures.anonymousWrites = { signUps: counts.signUps, contactMessages: counts.contactMessages };
    if (counts.databaseBytes !== undefined) figures.databaseBytes = counts.databaseBytes;
  } catch {
    figures.databaseOk = false;
  }
  return figures;
}

interface SiteCounts {
  pendingByPriority: { priority: number; n: number }[];
  due: { n: number; oldest: string | null };
  failed: number;
  holdsOverdue: number;
  signUps: number;
  contactMessages: number;
  /** PostgreSQL's database size, which SQLite's files in DATA_DIR tell instead. */
  databaseBytes?: number;
}

function countsOnSqlite(sqlite: Database.Database, at: string, staleAt: string): SiteCounts {
  const q = statementsOf(sqlite);
  return {
    pendingByPriority: q.pendingByPriority.all() as { priority: number; n: number }[],
    due: q.due.get(at) as { n: number; oldest: string | null },
    failed: (q.failed.get() as { n: number }).n,
    holdsOverdue: (q.holdsOverdue.get(staleAt) as { n: number }).n,
    signUps: (q.hitsOfAll.get('sign-up/all', at) as { n: number }).n,
    contactMessages: (q.hitsOfAll.get('contact/all', at) as { n: number }).n,
  };
}

/** The same counts on PostgreSQL, in the same SQL (its tables and columns are named alike). */
async function countsOnPostgres(db: PgDb, at: string, staleAt: string): Promise<SiteCounts> {
  const rowsOf = async (query: ReturnType<typeof sql>) =>
    (await db.execute(query)).rows as Record<string, string | number | null>[];
  const n = (found: Record<string, string | number | null>[]) => Number(found[0]?.n ?? 0);
  const pending = await rowsOf(
    sql`select priority, count(*) as n from outbox where status = 'pending' group by priority`,
  );
  const [due] = await rowsOf(
    sql`select count(*) as n, min(next_attempt_at) as oldest from outbox where status = 'pending' and priority = 0 and next_attempt_at <= ${at}`,
  );
  const hitsOfAll = async (name: string) =>
    n(
      await rowsOf(
        sql`select count(*) as n from rate_limit_hits where limit_name = ${name} and key = 'all' and expires_at > ${at}`,
      ),
    );
  return {
    pendingByPriority: pending.map((r) => ({ priority: Number(r.priority), n: Number(r.n) })),
    due: { n: Number(due?.n ?? 0), oldest: (due?.oldest as string | null) ?? null },
    failed: n(await rowsOf(sql`select count(*) as n from outbox where status = 'failed'`)),
    holdsOverdue: n(
      await rowsOf(sql`select count(*) as n from holds where status = 'active' and expires_at <= ${staleAt}`),
    ),
    signUps: await hitsOfAll('sign-up/all'),
    contactMessages: await hitsOfAll('contact/all'),
    databaseBytes: n(await rowsOf(sql`select pg_database_size(current_database()) as n`)),
  };
}

/**
 * The parts that are unwell and why, one sentence each an operator can act on; empty when the site is
 * ready. The disk is judged before it fills: on a full disk every write fails while reads (and
 * /healthz) still answer (issue 37).
 */
export function unwellParts(
  figures: SiteFigures,
  env: Pick<AppDeps['env'], 'DISK_FREE_MIN_MB'>,
): Partial<Record<SitePart, string>> {
  const unwell: Partial<Record<SitePart, string>> = {};
  if (!figures.databaseOk) unwell.database = 'the database cannot be read';
  if (figures.diskFreeBytes < env.DISK_FREE_MIN_MB * MB) {
    unwell.disk = `${Math.floor(figures.diskFreeBytes / MB)} MB free in DATA_DIR, below DISK_FREE_MIN_MB (${env.DISK_FREE_MIN_MB} MB): free space before writes fail`;
  }
  if (figures.mailOldestDueSeconds > MAIL_STUCK_SECONDS) {
    unwell.mail = `${figures.mailDue} confirmation(s) or other transactional mail due, the oldest for ${Math.round(figures.mailOldestDueSeconds / 60)} min: is the mail provider refusing them (see the log's "mail not sent")?`;
  }
  if (figures.holdsOverdue > 0) {
    unwell.jobs = `${figures.holdsOverdue} expired hold(s) not released: the background jobs have stalled`;
  }
  return unwell;
}

/** Free and total bytes of the file system holding DATA_DIR (zero when it cannot be read). */
export function diskOf(dataDir: string): { free: number; size: number } {
  try {
    const stats = statfsSync(dataDir);
    return { free: stats.bavail * stats.bsize, size: stats.blocks * stats.bsize };
  } catch {
    return { free: 0, size: 0 };
  }
}

function databaseBytes(dataDir: string): number {
  let total = 0;
  for (const suffix of ['', '-wal', '-shm']) {
    const file = path.join(dataDir, `jalsa.db${suffix}`);
    if (existsSync(file)) total += statSync(file).size;
  }
  return total;
}

/** Compiled once per database connection (several apps share a test worker, ADR 0031). */
const statements = new WeakMap<Database.Database, ReturnType<typeof compile>>();
function statementsOf(sqlite: Database.Database) {
  let compiled = statements.get(sqlite);
  if (!compiled) {
    compiled = compile(sqlite);
    statements.set(sqlite, compiled);
  }
  return compiled;
}

function compile(sqlite: Database.Database) {
  return {
    pendingByPriority: sqlite.prepare(
      "select priority, count(*) as n from outbox where status = 'pending' group by priority",
    ),
    due: sqlite.prepare(
      "select count(*) as n, min(next_attempt_at) as oldest from outbox where status = 'pending' and priority = 0 and next_attempt_at <= ?",
    ),
    failed: sqlite.prepare("select count(*) as n from outbox where status = 'failed'"),
    holdsOverdue: sqlite.prepare(
      "select count(*) as n from holds where status = 'active' and expires_at <= ?",
    ),
    hitsOfAll: sqlite.prepare(
      "select count(*) as n from rate_limit_hits where limit_name = ? and key = 'all' and expires_at > ?",
    ),
  };
}
