import { existsSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
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

export function measureSite(deps: Pick<AppDeps, 'sqlite' | 'env' | 'clock'>): SiteFigures {
  const now = deps.clock.now();
  const at = now.toISOString();
  const disk = diskOf(deps.env.DATA_DIR);
  const figures: SiteFigures = {
    databaseOk: true,
    diskFreeBytes: disk.free,
    diskSizeBytes: disk.size,
    databaseBytes: databaseBytes(deps.env.DATA_DIR),
    mailPending: { transactional: 0, bulk: 0 },
    mailDue: 0,
    mailOldestDueSeconds: 0,
    mailFailed: 0,
    holdsOverdue: 0,
    anonymousWrites: { signUps: 0, contactMessages: 0 },
  };
  try {
    const q = statementsOf(deps.sqlite);
    for (const row of q.pendingByPriority.all() as { priority: number; n: number }[]) {
      if (row.priority === 0) figures.mailPending.transactional += row.n;
      else figures.mailPending.bulk += row.n;
    }
    const due = q.due.get(at) as { n: number; oldest: string | null };
    figures.mailDue = due.n;
    figures.mailOldestDueSeconds = due.oldest
      ? Math.max(0, Math.round((now.getTime() - Date.parse(due.oldest)) / 1000))
      : 0;
    figures.mailFailed = (q.failed.get() as { n: number }).n;
    figures.holdsOverdue = (
      q.holdsOverdue.get(new Date(now.getTime() - HOLDS_STALE_MS).toISOString()) as { n: number }
    ).n;
    figures.anonymousWrites = {
      signUps: (q.hitsOfAll.get('sign-up/all', at) as { n: number }).n,
      contactMessages: (q.hitsOfAll.get('contact/all', at) as { n: number }).n,
    };
  } catch {
    figures.databaseOk = false;
  }
  return figures;
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
function diskOf(dataDir: string): { free: number; size: number } {
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
