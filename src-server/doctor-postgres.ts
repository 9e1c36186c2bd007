import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { appSecretFile, fingerprintOf } from './app-secret.ts';
import { redactedUrl } from './db/backup-postgres.ts';
import { DEFAULT_POOL_SIZE } from './db/engine/pool-size.ts';
import { PG_MIGRATIONS_FOLDER } from './db/engine/postgres.ts';
import type { DoctorCheck } from './doctor-check.ts';
import type { Env } from './env.ts';

/**
 * `npm run doctor` with DATABASE_URL (ADR 0035): the database every server of a PostgreSQL installation
 * shares. Read-only, as on SQLite: it never migrates or creates anything, it says what is missing. One
 * check per thing an operator fixes separately: the server, the migrations, the connection pool, the
 * trigram extension search needs, and the app secret against the fingerprint `db:move-to-postgres` (or
 * the first start) recorded.
 *
 * The pool size is DATABASE_POOL_SIZE (default DEFAULT_POOL_SIZE), the connections each server opens.
 */
export async function checkPostgres(source: NodeJS.ProcessEnv, env: Env): Promise<DoctorCheck[]> {
  const url = source.DATABASE_URL!;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    return [
      {
        name: 'postgresql',
        ok: false,
        detail: `cannot connect to ${redactedUrl(url)}: ${(err as Error).message}\nthe other database checks run once it connects`,
      },
    ];
  }
  try {
    const { rows } = await client.query<{ version: string; database: string }>(
      "select current_setting('server_version') as version, current_database() as database",
    );
    const server = rows[0]!;
    return [
      {
        name: 'postgresql',
        ok: true,
        detail: `PostgreSQL ${server.version.split(' ')[0]} at ${redactedUrl(url)} (database ${server.database})`,
      },
      await checkMigrations(client),
      await checkPool(client, source.DATABASE_POOL_SIZE),
      await checkTrigram(client),
      await checkSecret(client, env),
    ];
  } finally {
    await client.end();
  }
}

/**
 * Drizzle's migrator records each applied migration's journal time (`created_at`) and applies those newer
 * than the last one recorded, so the pending ones are the journal's entries after it.
 */
async function checkMigrations(client: pg.Client): Promise<DoctorCheck> {
  const journal = JSON.parse(
    readFileSync(path.join(PG_MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { when: number; tag: string }[] };
  const latest = journal.entries.at(-1)!;
  const table = await client.query<{ present: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  const last = table.rows[0]!.present
    ? Number(
        (
          await client.query<{ at: string | null }>(
            'select max(created_at) as at from drizzle.__drizzle_migrations',
          )
        ).rows[0]!.at ?? 0,
      )
    : 0;
  const pending = journal.entries.filter((entry) => entry.when > last);
  if (last === 0) {
    return {
      name: 'migrations',
      ok: false,
      detail: `no migrations applied: this database is empty (or not Jalsa's); npm run db:move-to-postgres applies the ${journal.entries.length} of migrations-pg/ and copies an installation in`,
    };
  }
  if (pending.length > 0) {
    return {
      name: 'migrations',
      ok: false,
      detail: `${pending.length} migration(s) of migrations-pg/ not applied (${pending.map((m) => m.tag).join(', ')}): back up (npm run db:backup), then npm run db:migrate with DATABASE_URL set, or start one server of this release, which applies them`,
    };
  }
  if (last > latest.when) {
    return {
      name: 'migrations',
      ok: false,
      detail: `the database has migrations newer than this release's latest (${latest.tag}): it was migrated by a newer release; run that release`,
    };
  }
  return { name: 'migrations', ok: true, detail: `applied up to the latest, ${latest.tag}` };
}

/** Every server opens its pool; what the server allows bounds how many servers fit. */
async function checkPool(client: pg.Client, configured: string | undefined): Promise<DoctorCheck> {
  const size = configured ? Number(configured) : DEFAULT_POOL_SIZE;
  if (!Number.isInteger(size) || size < 1) {
    return {
      name: 'connection pool',
      ok: false,
      detail: `DATABASE_POOL_SIZE must be a whole number, 1 or more (it is "${configured}")`,
    };
  }
  const { rows } = await client.query<{ max: string; reserved: string }>(
    "select current_setting('max_connections') as max, current_setting('superuser_reserved_connections') as reserved",
  );
  const max = Number(rows[0]!.max);
  const open = max - Number(rows[0]!.reserved);
  const servers = Math.floor(open / size);
  return {
    name: 'connection pool',
    ok: servers >= 1,
    detail:
      servers >= 1
        ? `${size} connections per server (${configured ? 'DATABASE_POOL_SIZE' : 'the default'}); the server takes ${open} (max_connections ${max}): room for ${servers} server(s)`
        : `${size} connections per server (DATABASE_POOL_SIZE) is more than the ${open} the server takes (max_connections ${max}): lower DATABASE_POOL_SIZE or raise max_connections`,
  };
}

async function checkTrigram(client: pg.Client): Promise<DoctorCheck> {
  const { rows } = await client.query<{ installed: string | null; available: boolean }>(
    `select (select extversion from pg_extension where extname = 'pg_trgm') as installed,
            exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available`,
  );
  const { installed, available } = rows[0]!;
  return {
    name: 'search (pg_trgm)',
    ok: installed !== null,
    detail: installed
      ? `pg_trgm ${installed} is installed`
      : available
        ? 'pg_trgm is not installed in this database, and search needs it: the migrations create it (CREATE EXTENSION pg_trgm), which needs a role allowed to create extensions'
        : "pg_trgm is not available on this server, and search needs it: install PostgreSQL's contrib modules (Debian: postgresql-contrib) or choose a provider that offers pg_trgm",
  };
}

/**
 * The secret at hand (APP_SECRET, else DATA_DIR/app-secret) against the database's fingerprint: a server
 * started with another one refuses, and one whose secret differs from the others' would issue tickets the
 * others' gates reject.
 */
async function checkSecret(client: pg.Client, env: Env): Promise<DoctorCheck> {
  const name = 'app secret';
  const table = await client.query<{ present: boolean }>(
    "select to_regclass('installation') is not null as present",
  );
  if (!table.rows[0]!.present) {
    return {
      name,
      ok: false,
      detail: 'cannot be checked: the database has no installation table (it is not migrated)',
    };
  }
  const recorded = (
    await client.query<{ fingerprint: string }>(
      'select app_secret_fingerprint as fingerprint from installation where id = 1',
    )
  ).rows[0]?.fingerprint;
  const file = appSecretFile(env.DATA_DIR);
  const from = env.APP_SECRET !== undefined ? 'APP_SECRET' : existsSync(file) ? file : null;
  const secret = env.APP_SECRET ?? (from ? readFileSync(file, 'utf8').trim() : undefined);
  if (!recorded) {
    return {
      name,
      ok: true,
      detail: `no fingerprint recorded yet: the first server to start records ${from ?? 'the secret it starts with'}`,
      warning:
        from === 'APP_SECRET' ? undefined : 'set APP_SECRET, the same on every server, before starting them',
    };
  }
  if (secret === undefined) {
    return {
      name,
      ok: false,
      detail: `the database's tickets are signed with an app secret, but neither APP_SECRET nor ${file} is set here: set APP_SECRET to the installation's secret (as on every server)`,
    };
  }
  return fingerprintOf(secret) === recorded
    ? { name, ok: true, detail: `${from} matches the fingerprint the database records` }
    : {
        name,
        ok: false,
        detail: `${from} is not the secret this database's tickets were signed with (its fingerprint differs from the one recorded): a server would refuse to start; set APP_SECRET to the installation's secret`,
      };
}
