import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, PG_MIGRATIONS_FOLDER, type PgDb } from '../../src-server/db/engine/postgres.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The PostgreSQL server a test file runs against (ADR 0035): TEST_DATABASE_URL, which CI sets
 * (.ci/run). In CI a missing URL fails the file rather than skipping it. Elsewhere, one started by
 * scripts/start-test-postgres.sh, else undefined (the file skips, saying why, where PostgreSQL is not
 * installed).
 */
export function testPostgresUrl(testFile: string): string | undefined {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error(
      `${testFile}: TEST_DATABASE_URL is not set in CI; .ci/run starts a PostgreSQL (scripts/start-test-postgres.sh) and exports it.`,
    );
  }
  try {
    return execFileSync('bash', [path.join(root, 'scripts/start-test-postgres.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const reason = String((error as { stderr?: string }).stderr ?? error).trim();
    console.warn(
      `${testFile} skipped: TEST_DATABASE_URL is not set and scripts/start-test-postgres.sh could not start PostgreSQL (${reason}). Install it with apt-get install -y postgresql, or set TEST_DATABASE_URL.`,
    );
    return undefined;
  }
}

export interface ScratchPostgres {
  url: string;
  /**
   * `waitForClosing`: the caller has closed its connections, but a pool's `end()` resolves before its
   * sockets have; a forced drop would end those backends under clients that then report an unhandled
   * error, so wait (briefly) for them to go instead.
   */
  drop: (options?: { waitForClosing?: boolean }) => Promise<void>;
}

/**
 * A new database on the server, dropped (with any connection left to it) by `drop`: empty, or a copy of
 * `template` (CREATE DATABASE … TEMPLATE, a file copy rather than a migration run).
 */
export async function scratchPostgres(
  serverUrl: string,
  prefix = 'jalsa_test',
  template?: string,
): Promise<ScratchPostgres> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async ({ waitForClosing = false } = {}) => {
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      try {
        for (let attempt = 0; waitForClosing && attempt < 100; attempt++) {
          try {
            await again.query(`DROP DATABASE IF EXISTS "${name}"`);
            return;
          } catch (error) {
            // 55006: still in use by another session.
            if ((error as { code?: string }).code !== '55006') throw error;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
        await again.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await again.end();
      }
    },
  };
}

/**
 * A database opened as the server opens PostgreSQL (`openPostgres`: a pool, the migrations applied, which
 * find nothing to do); `drop` closes the pool and hands the database back. It holds the template's rows
 * and nothing else: a database of the pool below, emptied, or a new copy of the migrated template when
 * every pooled one is in use. A file that makes a database per case (the access matrices on PostgreSQL)
 * pays a reset (~15 ms), not a copy (0.4–0.7 s of PostgreSQL's time here) or 60 migrations.
 */
export async function freshPostgresDatabase(
  serverUrl: string,
  options: { poolSize?: number } = {},
): Promise<{ db: PgDb; url: string; drop: () => Promise<void> }> {
  const claim = await claimPooledDatabase(serverUrl);
  const url = new URL(serverUrl);
  url.pathname = `/${claim.name}`;
  const db = await openPostgres(url.toString(), options).catch(async (error: unknown) => {
    await claim.release();
    throw error;
  });
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.$client.end();
      await claim.release();
    },
  };
}

// ── The pool of reusable databases ───────────────────────────────────────────────────────────────────
// CREATE DATABASE … TEMPLATE is the dearest step of a test on PostgreSQL (a copy of ~10 MB of catalog
// plus a checkpoint, 0.4–0.7 s here), where emptying a used copy takes ~15 ms: its tables hold a test's
// few rows. So the copies stay on the test server, named after their template, and a test claims one:
// a session-level advisory lock on the `postgres` database held by its worker's claimer session, which
// PostgreSQL releases by itself when the worker ends, however it ends. The pool grows to the number of
// databases in use at once and is shared by every worker and every later run on the same migrations.

/** First key of the two-key advisory locks that claim a pooled database (apart from every other lock). */
const POOL_LOCK_SPACE = 38_038;
const POOL_PREFIX = 'jalsa_pool_';

interface Claimer {
  client: pg.Client;
  /** The pool databases this worker holds: its session's locks are re-entrant, so it must not re-claim. */
  claimed: Set<string>;
}

const claimers = new Map<string, Promise<Claimer>>();

function claimerFor(serverUrl: string): Promise<Claimer> {
  let claimer = claimers.get(serverUrl);
  if (!claimer) {
    claimer = (async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      // The session lives as long as the worker; it must neither keep the worker alive nor bring it down.
      client.on('error', () => {});
      (client as unknown as { connection: { stream: { unref: () => void } } }).connection.stream.unref();
      return { client, claimed: new Set<string>() };
    })();
    claimers.set(serverUrl, claimer);
  }
  return claimer;
}

async function claimPooledDatabase(
  serverUrl: string,
): Promise<{ name: string; release: () => Promise<void> }> {
  const template = await migratedTemplate(serverUrl);
  const family = `${POOL_PREFIX}${template.slice('jalsa_template_'.length)}_`;
  const claimer = await claimerFor(serverUrl);
  const { client, claimed } = claimer;
  const release = (name: string) => async () => {
    await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [POOL_LOCK_SPACE, name]);
    claimed.delete(name);
  };
  const { rows } = await client.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname',
    [family],
  );
  for (const { datname } of rows) {
    if (claimed.has(datname)) continue;
    claimed.add(datname);
    const { rows: got } = await client.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok',
      [POOL_LOCK_SPACE, datname],
    );
    if (!got[0]?.ok) {
      claimed.delete(datname);
      continue;
    }
    if (await emptied(serverUrl, datname, await seedOf(client, template))) {
      return { name: datname, release: release(datname) };
    }
    // A test left a transaction open on it (or it is otherwise unusable): replace it.
    await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await release(datname)();
  }
  const name = `${family}${randomBytes(6).toString('hex')}`;
  claimed.add(name);
  await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [POOL_LOCK_SPACE, name]);
  await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return { name, release: release(name) };
}

/**
 * The template's rows (the migrations' own, e.g. catalog_version's first row), which an emptied copy gets
 * back: kept as the template's comment when it is made, so reading them connects nobody to the template
 * (CREATE DATABASE … TEMPLATE refuses while anyone is).
 */
interface TemplateSeed {
  /** The template's rows by table (`"schema"."table"` → rows as JSON). */
  rows: Record<string, unknown[]>;
  /** SCHEMA_FINGERPRINT of the template. */
  fingerprint: string;
}

const seeds = new Map<string, Promise<TemplateSeed>>();
function seedOf(admin: pg.Client, template: string): Promise<TemplateSeed> {
  let seed = seeds.get(template);
  if (!seed) {
    seed = admin
      .query<{ seed: string | null }>(
        "SELECT shobj_description(oid, 'pg_database') AS seed FROM pg_database WHERE datname = $1",
        [template],
      )
      .then(({ rows }) => {
        const seed = JSON.parse(rows[0]?.seed ?? 'null') as TemplateSeed | null;
        if (!seed?.fingerprint) throw new Error(`test PostgreSQL: template ${template} has no seed comment`);
        return seed;
      });
    seeds.set(template, seed);
  }
  return seed;
}

/**
 * Empties a used pool database back to the template's state in one transaction: every public table's rows
 * deleted (replica mode: no triggers or foreign-key checks, which a whole-database delete needs neither
 * of), every sequence restarted, the template's rows put back. False when it could not (a lock held by
 * a transaction some test left open, past a short timeout).
 */
async function emptied(serverUrl: string, name: string, seed: TemplateSeed): Promise<boolean> {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows: found } = await client.query<{ fingerprint: string }>(SCHEMA_FINGERPRINT);
    if (found[0]?.fingerprint !== seed.fingerprint) {
      console.warn(`test PostgreSQL: ${name}'s schema was changed by a test, so it is replaced, not reused`);
      return false;
    }
    const { rows: tables } = await client.query<{ name: string }>(
      "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    const { rows: sequences } = await client.query<{ name: string }>(
      "SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences WHERE schemaname = 'public'",
    );
    const statements = [
      'BEGIN',
      "SET LOCAL lock_timeout = '5s'",
      'SET LOCAL session_replication_role = replica',
      ...tables.map((t) => `DELETE FROM ${t.name}`),
      ...sequences.map((s) => `ALTER SEQUENCE ${s.name} RESTART`),
      ...Object.entries(seed.rows).map(
        ([table, rows]) =>
          `INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, ${client.escapeLiteral(JSON.stringify(rows))})`,
      ),
      'COMMIT',
    ];
    await client.query(statements.join(';\n'));
    return true;
  } catch (error) {
    console.warn(`test PostgreSQL: could not empty ${name} for reuse, so it is replaced: ${String(error)}`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const templates = new Map<string, Promise<string>>();

/**
 * The name of a database holding every migration of migrations-pg/ and nothing else, made once per server
 * and set of migrations (its name carries their hash), under an advisory lock so parallel workers make it
 * once. It is built under a temporary name and renamed when complete, and nobody stays connected to it
 * (CREATE DATABASE … TEMPLATE needs that).
 */
export function migratedTemplate(serverUrl: string): Promise<string> {
  let made = templates.get(serverUrl);
  if (!made) {
    made = makeTemplate(serverUrl);
    templates.set(serverUrl, made);
  }
  return made;
}

async function makeTemplate(serverUrl: string): Promise<string> {
  // The version names what a template holds besides the migrations (the seed comment below).
  const hash = createHash('sha256').update('template with its seed, 2');
  for (const file of readdirSync(PG_MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) {
      hash.update(file).update(readFileSync(path.join(PG_MIGRATIONS_FOLDER, file)));
    }
  }
  const name = `jalsa_template_${hash.digest('hex').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', ['jalsa test template']);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = await scratchPostgres(serverUrl, 'jalsa_template_building');
      const db = await openPostgres(building.url, { poolSize: 1 });
      const seed = await templateRows(db);
      await db.$client.end();
      const buildingName = new URL(building.url).pathname.slice(1);
      await admin.query(
        `COMMENT ON DATABASE "${buildingName}" IS ${admin.escapeLiteral(JSON.stringify(seed))}`,
      );
      await admin.query(`ALTER DATABASE "${buildingName}" RENAME TO "${name}"`);
    }
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', ['jalsa test template']).catch(() => {});
    await admin.end();
  }
  return name;
}

/**
 * What a test could change in a pooled database besides rows (a trigger it adds to fake a full disk, a
 * table, an index, a function): one hash of the public schema's objects. An emptied database whose hash is
 * not the template's is replaced rather than reused.
 */
const SCHEMA_FINGERPRINT = `SELECT md5(string_agg(item, ',' ORDER BY item)) AS fingerprint FROM (
  SELECT 'c:' || c.relname || ':' || c.relkind::text AS item FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
  UNION ALL SELECT 't:' || t.tgname || ':' || t.tgenabled::text FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND NOT t.tgisinternal
  UNION ALL SELECT 'p:' || p.proname || ':' || md5(p.prosrc) FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
  UNION ALL SELECT 'a:' || c.relname || ':' || a.attname || ':' || a.atttypid::text FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
) objects`;

/** The rows the migrations left in public tables, by table (`"schema"."table"` → rows as JSON). */
async function templateRows(db: PgDb): Promise<TemplateSeed> {
  const { rows: tables } = await db.$client.query<{ name: string }>(
    "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = 'public'",
  );
  const seed: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    const { rows } = await db.$client.query<{ rows: unknown[] | null }>(
      `SELECT json_agg(t) AS rows FROM ${name} t`,
    );
    if (rows[0]?.rows) seed[name] = rows[0].rows;
  }
  const { rows } = await db.$client.query<{ fingerprint: string }>(SCHEMA_FINGERPRINT);
  return { rows: seed, fingerprint: rows[0]!.fingerprint };
}
