import pg from 'pg';
import type { TestApp } from './test-app.ts';

/**
 * Takes the app's database away under it, on its engine: SQLite's file closed; on PostgreSQL every
 * connection of the app ended by the server (as a restart or failover ends them) and new ones refused.
 * Returns what gives it back, to be awaited before `close`.
 */
export async function loseDatabase(t: TestApp): Promise<() => Promise<void>> {
  if (t.engine === 'sqlite') {
    const close = t.close;
    t.deps.sqlite.close();
    t.close = () => {
      try {
        close();
      } catch {}
    };
    return async () => {};
  }
  const url = new URL(t.deps.env.DATABASE_URL!);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  const ident = admin.escapeIdentifier(name);
  await admin.query(`alter database ${ident} with allow_connections false`);
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [name],
  );
  return async () => {
    await admin.query(`alter database ${ident} with allow_connections true`);
    await admin.end();
  };
}
