import type Database from 'better-sqlite3';
import pg from 'pg';
import { vi } from 'vitest';
import type { TestApp } from './test-app.ts';

/** A statement that reads the events table, as Drizzle writes it on either engine (`from "events"`). */
const READS_EVENTS = /\bfrom "?events\b/i;

/**
 * How many statements reading the events table `work` made the app's database run, on either engine:
 * on SQLite every run of a prepared statement (better-sqlite3's Statement prototype), on PostgreSQL
 * every query a pooled connection sends (pg's Client prototype, which the pool's connections share).
 * For the public catalogue cache's tests: a cached answer reads nothing.
 */
export async function eventReadsDuring(t: TestApp, work: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  if (t.engine === 'postgres') {
    type Query = (this: pg.Client, ...args: unknown[]) => unknown;
    const query = pg.Client.prototype.query as unknown as Query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      if (text && READS_EVENTS.test(text)) reads += 1;
      return query.apply(this, args) as never;
    });
  } else {
    type Run = (this: Database.Statement, ...params: unknown[]) => unknown;
    const statement = Object.getPrototypeOf(t.deps.sqlite.prepare('select 1')) as Record<'all' | 'get', Run>;
    for (const method of ['all', 'get'] as const) {
      const run = statement[method];
      vi.spyOn(statement, method).mockImplementation(function (this: Database.Statement, ...params) {
        if (READS_EVENTS.test(this.source)) reads += 1;
        return run.apply(this, params);
      });
    }
  }
  try {
    await work();
  } finally {
    vi.restoreAllMocks();
  }
  return reads;
}
