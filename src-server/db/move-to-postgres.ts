import Database from 'better-sqlite3';
import { is } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { type PgColumn, PgTable, getTableConfig as pgTableConfig } from 'drizzle-orm/pg-core';
import { type SQLiteColumn, SQLiteTable, getTableConfig as sqliteTableConfig } from 'drizzle-orm/sqlite-core';
import pg from 'pg';
import { fingerprintOf } from '../app-secret.ts';
import { pendingMigrations } from './client.ts';
import { PG_MIGRATIONS_FOLDER } from './engine/postgres.ts';
import * as sqliteSchema from './schema/index.ts';
import * as pgSchema from './schema-pg/index.ts';

/**
 * `npm run db:move-to-postgres` (issue 38, ADR 0035): copies a SQLite installation into an empty
 * PostgreSQL database. The table list is every table of the SQLite schema module (so a new table is
 * copied without anyone remembering to add it), plus the tables SQLite's migrations write by hand
 * (HAND_WRITTEN); the FTS5 search index is rebuilt as PostgreSQL's `event_search`. Rows are read in one
 * read-only snapshot, streamed in batches and written in one PostgreSQL transaction, in foreign-key
 * order; counts and the inventory invariant are checked inside that transaction, so a move that fails
 * leaves the target with its schema and no data. The SQLite file is opened read-only.
 */
export async function moveToPostgres(options: {
  sqliteFile: string;
  databaseUrl: string;
  /** The secret this installation signs tickets with (APP_SECRET or DATA_DIR/app-secret), if at hand. */
  appSecret?: string;
  batchRows?: number;
  log?: (line: string) => void;
}): Promise<MoveReport> {
  const log = options.log ?? (() => {});
  const sqlite = openReadOnly(options.sqliteFile);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  try {
    await client.connect();
    const secret = secretCheck(sqlite, options.appSecret);
    await refuseNonEmpty(client);
    log('applying the PostgreSQL migrations');
    await migrate(drizzle(client), { migrationsFolder: PG_MIGRATIONS_FOLDER });
    await refuseNonEmpty(client);

    // One snapshot of the SQLite file for the whole copy, even if the server still writes to it.
    sqlite.exec('BEGIN');
    await client.query('BEGIN');
    try {
      const tables: TableReport[] = [];
      for (const plan of copyPlan()) {
        const rows = await copyTable(sqlite, client, plan, options.batchRows ?? 500);
        tables.push({ table: plan.name, rows });
        log(`copied ${plan.name}: ${rows} row(s)`);
      }
      for (const name of HAND_WRITTEN) {
        tables.push({ table: name, rows: await copyHandWritten(sqlite, client, name) });
      }
      const searchRows = await rebuildSearch(sqlite, client, options.batchRows ?? 500);
      log(`rebuilt event_search: ${searchRows} row(s)`);
      const sequences = await setSequences(client);
      await verifyCounts(sqlite, client, tables);
      await verifyInventory(sqlite, client);
      // After the count check: this row is the one the target holds and the SQLite file does not.
      if (secret.record) {
        await client.query(
          'INSERT INTO installation (id, app_secret_fingerprint, created_at) VALUES (1, $1, $2)',
          [secret.fingerprint, new Date().toISOString()],
        );
      }
      await client.query('COMMIT');
      return { tables, searchRows, sequences, appSecretFingerprint: secret.fingerprint };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      // Ends the read snapshot; never masks the error that stopped the copy.
      if (sqlite.inTransaction) {
        try {
          sqlite.exec('COMMIT');
        } catch {}
      }
    }
  } finally {
    sqlite.close();
    await client.end().catch(() => {});
  }
}

/**
 * A move that must not go on, or whose checks failed (then rolled back), with a message for the operator
 * (printed without a stack trace).
 */
export class MoveRefusal extends Error {}

export interface TableReport {
  table: string;
  rows: number;
}

export interface MoveReport {
  /** Every table copied, with its row count on both sides (equal, or the move failed). */
  tables: TableReport[];
  /** Rows of PostgreSQL's search table, rebuilt from SQLite's FTS5 index. */
  searchRows: number;
  /** Each identity sequence and the value it hands out next. */
  sequences: { table: string; column: string; next: number }[];
  /** The app secret's fingerprint the target now holds (null: none recorded, none at hand). */
  appSecretFingerprint: string | null;
}

/**
 * Tables only SQLite has, which the move does not copy, each with its reason (as in the parity test):
 * the FTS5 index's rowid map. Its content arrives as PostgreSQL's `event_search` (rebuildSearch).
 */
export const NOT_COPIED: Record<string, string> = {
  event_search_keys: "maps FTS5 rowids to events; PostgreSQL's event_search is keyed by the event id",
  event_search: "SQLite's FTS5 index (and its shadow tables): rebuilt as PostgreSQL's event_search",
};

/** Tables both engines' migrations create by hand, outside the schema modules. */
export const HAND_WRITTEN = ['catalog_version'] as const;

interface TablePlan {
  name: string;
  columns: { name: string; sqlite: SQLiteColumn; pg: PgColumn }[];
}

/** The SQLite schema's tables with their PostgreSQL twins, parents before the tables that refer to them. */
export function copyPlan(): TablePlan[] {
  const pgTables = new Map(
    Object.values(pgSchema as Record<string, unknown>)
      .filter((value): value is PgTable => is(value, PgTable))
      .map((table) => [pgTableConfig(table).name, pgTableConfig(table)]),
  );
  const plans = new Map<string, TablePlan & { parents: string[] }>();
  for (const value of Object.values(sqliteSchema as Record<string, unknown>)) {
    if (!is(value, SQLiteTable)) continue;
    const config = sqliteTableConfig(value);
    if (config.name in NOT_COPIED) continue;
    const twin = pgTables.get(config.name);
    if (!twin) throw new Error(`schema-pg has no table ${config.name} (src-server/db/schema-parity.test.ts)`);
    const pgColumns = new Map(twin.columns.map((column) => [column.name, column]));
    plans.set(config.name, {
      name: config.name,
      columns: config.columns.map((column) => {
        const pgColumn = pgColumns.get(column.name);
        if (!pgColumn) throw new Error(`schema-pg's ${config.name} has no column ${column.name}`);
        return { name: column.name, sqlite: column, pg: pgColumn };
      }),
      parents: twin.foreignKeys
        .map((key) => pgTableConfig(key.reference().foreignTable).name)
        .filter((parent) => parent !== config.name),
    });
  }
  // Depth-first: a table after every table it refers to.
  const ordered: TablePlan[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`foreign keys form a cycle: ${trail.join(' → ')}`);
    const plan = plans.get(name);
    if (!plan) return;
    state.set(name, 'visiting');
    for (const parent of plan.parents) visit(parent, [...trail, parent]);
    state.set(name, 'done');
    ordered.push({ name: plan.name, columns: plan.columns });
  };
  for (const name of [...plans.keys()].sort()) visit(name, [name]);
  return ordered;
}

function openReadOnly(file: string): Database.Database {
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new MoveRefusal(`Cannot open the SQLite database ${file}: ${(error as Error).message}`);
  }
  sqlite.pragma('busy_timeout = 5000');
  const journal = sqlite
    .prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'")
    .get();
  if (!journal) {
    sqlite.close();
    throw new MoveRefusal(`${file} is not a Jalsa database (it has no migrations table).`);
  }
  const pending = pendingMigrations(sqlite);
  if (pending > 0) {
    sqlite.close();
    throw new MoveRefusal(
      `${file} lacks ${pending} migration(s) of this release. Run \`npm run db:migrate\` first (it backs the database up), then move it.`,
    );
  }
  return sqlite;
}

/**
 * The fingerprint the target must hold. The installation's own row travels with the table; a database
 * from before fingerprints gets the one of the secret at hand. A secret at hand that is not the one the
 * tickets were signed with is refused now, rather than at the first start on PostgreSQL.
 */
function secretCheck(
  sqlite: Database.Database,
  appSecret: string | undefined,
): { fingerprint: string | null; record: boolean } {
  const row = sqlite
    .prepare('select app_secret_fingerprint as fingerprint from installation where id = 1')
    .get() as { fingerprint: string } | undefined;
  const atHand = appSecret === undefined ? null : fingerprintOf(appSecret);
  if (row && atHand && row.fingerprint !== atHand) {
    throw new MoveRefusal(
      "The app secret at hand (APP_SECRET, else DATA_DIR/app-secret) is not the one this database's tickets were signed with. Move with the installation's own secret: the servers on PostgreSQL must start with it, or every ticket already issued fails at the gate.",
    );
  }
  if (row) return { fingerprint: row.fingerprint, record: false };
  return { fingerprint: atHand, record: atHand !== null };
}

/** The target must hold no data: a move never merges into, or overwrites, another installation. */
async function refuseNonEmpty(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ schema: string; name: string }>(
    `SELECT schemaname AS schema, tablename AS name FROM pg_tables
      WHERE schemaname NOT IN ('pg_catalog', 'information_schema', 'drizzle')`,
  );
  const used: string[] = [];
  for (const table of rows) {
    // The migrations' own seed: the catalogue's cache counter starts with one row.
    if (table.schema === 'public' && table.name === 'catalog_version') continue;
    const quoted = `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`;
    const found = await client.query(`SELECT 1 FROM ${quoted} LIMIT 1`);
    if (found.rowCount) used.push(`${table.schema}.${table.name}`);
  }
  if (used.length > 0) {
    throw new MoveRefusal(
      `The target PostgreSQL database is not empty (rows in ${used.slice(0, 5).join(', ')}${used.length > 5 ? `, and ${used.length - 5} more` : ''}). A move copies into an empty database only: create a new one (CREATE DATABASE jalsa) and move into it.`,
    );
  }
}

async function copyTable(
  sqlite: Database.Database,
  client: pg.Client,
  plan: TablePlan,
  batchRows: number,
): Promise<number> {
  const names = plan.columns.map((column) => quoteIdent(column.name));
  // PostgreSQL takes at most 65,535 parameters a statement.
  const perBatch = Math.max(1, Math.min(batchRows, Math.floor(60_000 / names.length)));
  const read = sqlite.prepare(`SELECT ${names.join(', ')} FROM ${quoteIdent(plan.name)}`).raw(true);
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const params: unknown[] = [];
    const tuples = batch.map((row) => {
      const marks = row.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${marks.join(', ')})`;
    });
    await client.query(
      `INSERT INTO ${quoteIdent(plan.name)} (${names.join(', ')}) VALUES ${tuples.join(', ')}`,
      params,
    );
    copied += batch.length;
    batch = [];
  };
  // Streamed: only one batch is in memory at a time.
  for (const raw of read.iterate() as IterableIterator<unknown[]>) {
    batch.push(plan.columns.map((column, i) => convert(column, raw[i])));
    if (batch.length >= perBatch) await flush();
  }
  await flush();
  return copied;
}

/**
 * A SQLite value as PostgreSQL's column takes it, through the two schemas' own mappings (the ones the app
 * reads and writes with): 0/1 to booleans, JSON text to jsonb. Text (instants included, ADR 0035) and
 * integers (paise into bigint) pass unchanged.
 */
function convert(column: TablePlan['columns'][number], value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return column.pg.mapToDriverValue(column.sqlite.mapFromDriverValue(value));
}

async function copyHandWritten(
  sqlite: Database.Database,
  client: pg.Client,
  name: (typeof HAND_WRITTEN)[number],
): Promise<number> {
  // catalog_version: one counter row, seeded by both engines' migrations; the move carries its value.
  const rows = sqlite.prepare('SELECT id, version FROM catalog_version').all() as {
    id: number;
    version: number;
  }[];
  await client.query(`DELETE FROM ${quoteIdent(name)}`);
  for (const row of rows) {
    await client.query('INSERT INTO catalog_version (id, version) VALUES ($1, $2)', [row.id, row.version]);
  }
  return rows.length;
}

/**
 * PostgreSQL's `event_search` from SQLite's FTS5 index: the same documents (published events that have
 * not ended, their name, artists, venue, city and category), keyed by event id instead of FTS5 rowid.
 */
async function rebuildSearch(
  sqlite: Database.Database,
  client: pg.Client,
  batchRows: number,
): Promise<number> {
  const read = sqlite
    .prepare(
      `SELECT k.event_id, s.name, s.artists, s.venue, s.city, s.category
         FROM event_search s JOIN event_search_keys k ON k.doc_id = s.rowid`,
    )
    .raw(true);
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const params = batch.flat();
    const tuples = batch.map((_, r) => `(${[1, 2, 3, 4, 5, 6].map((c) => `$${r * 6 + c}`).join(', ')})`);
    await client.query(
      `INSERT INTO event_search (event_id, name, artists, venue, city, category) VALUES ${tuples.join(', ')}`,
      params,
    );
    copied += batch.length;
    batch = [];
  };
  for (const row of read.iterate() as IterableIterator<unknown[]>) {
    batch.push(row);
    if (batch.length >= batchRows) await flush();
  }
  await flush();
  const keys = (sqlite.prepare('SELECT count(*) AS n FROM event_search_keys').get() as { n: number }).n;
  if (keys !== copied) {
    throw new Error(
      `event_search: ${keys} event(s) are indexed on SQLite, but ${copied} document(s) were found`,
    );
  }
  return copied;
}

/** Each identity column's sequence set past the largest id copied, so the next insert does not collide. */
async function setSequences(client: pg.Client): Promise<MoveReport['sequences']> {
  const { rows } = await client.query<{ table: string; column: string }>(
    `SELECT table_name AS table, column_name AS column FROM information_schema.columns
      WHERE table_schema = 'public' AND is_identity = 'YES' ORDER BY table_name`,
  );
  const sequences: MoveReport['sequences'] = [];
  for (const { table, column } of rows) {
    const { rows: set } = await client.query<{ next: string }>(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${quoteIdent(column)}), 0) + 1, false)::text AS next
         FROM ${quoteIdent(table)}`,
      [table, column],
    );
    sequences.push({ table, column, next: Number(set[0]?.next) });
  }
  return sequences;
}

async function verifyCounts(sqlite: Database.Database, client: pg.Client, tables: TableReport[]) {
  const wrong: string[] = [];
  for (const { table, rows } of tables) {
    const source = (sqlite.prepare(`SELECT count(*) AS n FROM ${quoteIdent(table)}`).get() as { n: number })
      .n;
    const { rows: target } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${quoteIdent(table)}`,
    );
    if (source !== rows || target[0]?.n !== source) {
      wrong.push(`${table}: ${source} on SQLite, ${target[0]?.n} on PostgreSQL`);
    }
  }
  if (wrong.length > 0) {
    throw new MoveRefusal(
      `Row counts differ after the copy, so nothing was committed to the target:\n  ${wrong.join('\n  ')}`,
    );
  }
}

/**
 * available + seats in active holds + seats of confirmed (or kept) bookings = total, per ticket type, and
 * none negative, on the target (test/helpers/inventory.ts says the same for SQLite).
 */
async function verifyInventory(sqlite: Database.Database, client: pg.Client) {
  const { rows } = await client.query<{
    id: string;
    total: number;
    available: number;
    held: number;
    sold: number;
  }>(
    `WITH held AS (
       SELECT hi.ticket_type_id AS id, sum(hi.quantity)::int AS n
         FROM hold_items hi JOIN holds h ON h.id = hi.hold_id WHERE h.status = 'active' GROUP BY 1),
     sold AS (
       SELECT line->>'id' AS id, sum((line->>'quantity')::int)::int AS n
         FROM bookings b CROSS JOIN LATERAL jsonb_array_elements(b.ticket_types) AS line
        WHERE b.status = 'confirmed' OR b.seats_kept GROUP BY 1)
     SELECT t.id, t.total_tickets AS total, t.available_tickets AS available,
            coalesce(held.n, 0) AS held, coalesce(sold.n, 0) AS sold
       FROM ticket_types t LEFT JOIN held ON held.id = t.id LEFT JOIN sold ON sold.id = t.id
      WHERE t.available_tickets < 0 OR t.available_tickets + coalesce(held.n, 0) + coalesce(sold.n, 0) <> t.total_tickets`,
  );
  if (rows.length === 0) return;
  const already = new Set(
    (
      sqlite
        .prepare(
          `WITH held AS (
             SELECT hi.ticket_type_id AS id, sum(hi.quantity) AS n
               FROM hold_items hi JOIN holds h ON h.id = hi.hold_id WHERE h.status = 'active' GROUP BY 1),
           sold AS (
             SELECT json_extract(line.value, '$.id') AS id, sum(json_extract(line.value, '$.quantity')) AS n
               FROM bookings b, json_each(b.ticket_types) AS line
              WHERE b.status = 'confirmed' OR b.seats_kept = 1 GROUP BY 1)
           SELECT t.id FROM ticket_types t LEFT JOIN held ON held.id = t.id LEFT JOIN sold ON sold.id = t.id
            WHERE t.available_tickets < 0
               OR t.available_tickets + coalesce(held.n, 0) + coalesce(sold.n, 0) <> t.total_tickets`,
        )
        .all() as { id: string }[]
    ).map((row) => row.id),
  );
  const lines = rows.map(
    (row) =>
      `${row.id}: available ${row.available} + held ${row.held} + sold ${row.sold} ≠ total ${row.total}${already.has(row.id) ? ' (so on SQLite too)' : ''}`,
  );
  throw new MoveRefusal(
    `The inventory invariant does not hold on the target, so nothing was committed to it:\n  ${lines.join('\n  ')}`,
  );
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
