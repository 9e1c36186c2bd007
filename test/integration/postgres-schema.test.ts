import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { is, SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { getTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_MIGRATIONS_FOLDER } from '../../src-server/db/engine/postgres.ts';
import * as schema from '../../src-server/db/schema-pg/index.ts';
import { testPostgresUrl } from '../helpers/test-postgres.ts';

// PostgreSQL's migrations (migrations-pg/, ADR 0035) applied to a fresh database on a real server give
// exactly the tables, columns, indexes and constraints schema-pg declares, plus what the migrations write by
// hand (pg_trgm, the catalogue's cache version, the immutability triggers), and the search columns work.
// The server is TEST_DATABASE_URL (.ci/run starts one); without it, a developer's run starts one with
// scripts/start-test-postgres.sh, and skips, saying so, only where PostgreSQL is not installed. In CI
// (CI set) a missing server fails the run instead.

const _root = path.resolve(import.meta.dirname, '../..');
const serverUrl = testPostgresUrl('postgres-schema.test.ts');
const tables: PgTable[] = Object.values(schema as Record<string, unknown>).filter((value) =>
  is(value, PgTable),
);

describe.skipIf(serverUrl === undefined)('PostgreSQL migrations on a real server', () => {
  const databaseName = `jalsa_schema_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client;
  let client: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${databaseName}"`);
    const url = new URL(serverUrl as string);
    url.pathname = `/${databaseName}`;
    client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await migrate(drizzle(client), { migrationsFolder: PG_MIGRATIONS_FOLDER });
  });

  afterAll(async () => {
    await client?.end();
    await admin?.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    await admin?.end();
  });

  it('creates every table and column of schema-pg, with its type, nullability and default', async () => {
    const { rows } = await client.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: 'YES' | 'NO';
      column_default: string | null;
      is_identity: 'YES' | 'NO';
      is_generated: 'ALWAYS' | 'NEVER';
    }>(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity, is_generated
         FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const actual = rows.map(
      (row) =>
        `${row.table_name}.${row.column_name} ${row.data_type} ${row.is_nullable === 'NO' ? 'not null' : 'null'}` +
        `${row.column_default !== null || row.is_identity === 'YES' || row.is_generated === 'ALWAYS' ? ' with a default' : ''}`,
    );
    const expected = tables.flatMap((table) => {
      const config = getTableConfig(table);
      return config.columns.map(
        (column) =>
          `${config.name}.${column.name} ${column.getSQLType()} ${column.notNull ? 'not null' : 'null'}` +
          `${column.hasDefault || column.generated ? ' with a default' : ''}`,
      );
    });
    const handWritten = ['catalog_version.id integer not null', 'catalog_version.version integer not null'];
    expect(actual.sort()).toEqual([...expected, ...handWritten].sort());
  });

  it('creates every index with its columns, uniqueness and condition', async () => {
    const { rows } = await client.query<{
      table_name: string;
      index_name: string;
      is_unique: boolean;
      is_primary: boolean;
      columns: string[];
      predicate: string | null;
      method: string;
    }>(
      `SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique,
              ix.indisprimary AS is_primary, am.amname AS method,
              pg_get_expr(ix.indpred, ix.indrelid) AS predicate,
              array(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
                      JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum
                     ORDER BY k.n)::text[] AS columns
         FROM pg_index ix
         JOIN pg_class i ON i.oid = ix.indexrelid
         JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_am am ON am.oid = i.relam
         JOIN pg_namespace ns ON ns.oid = t.relnamespace
        WHERE ns.nspname = 'public'`,
    );
    const byName = new Map(rows.map((row) => [row.index_name, row]));
    const dialect = new PgDialect();
    for (const table of tables) {
      const config = getTableConfig(table);
      for (const index of config.indexes) {
        const name = index.config.name as string;
        const actual = byName.get(name);
        expect(actual, `index ${name} on ${config.name}`).toBeDefined();
        if (!actual) continue;
        expect(actual.table_name, name).toBe(config.name);
        expect(actual.is_unique, `${name} unique`).toBe(index.config.unique);
        expect(actual.method, `${name} method`).toBe(index.config.method ?? 'btree');
        expect(actual.columns, `${name} columns`).toEqual(
          index.config.columns.map((column) =>
            is(column, SQL) ? dialect.sqlToQuery(column).sql : (column as { name: string }).name,
          ),
        );
        const where = index.config.where ? dialect.sqlToQuery(index.config.where).sql : null;
        expect(actual.predicate !== null, `${name} is partial`).toBe(where !== null);
        // PostgreSQL prints the condition its own way ('active'::text, = ANY (ARRAY[…])): each word of
        // the declared condition must be in it.
        for (const word of where?.toLowerCase().match(/[a-z_0-9]+/g) ?? []) {
          if (word === config.name) continue;
          expect(actual.predicate?.toLowerCase(), `${name} condition`).toContain(word);
        }
      }
    }
    const declared = new Set(
      tables.flatMap((table) => getTableConfig(table).indexes.map((i) => i.config.name)),
    );
    const undeclared = rows
      .filter((row) => !row.is_primary && !declared.has(row.index_name))
      .map((r) => r.index_name);
    // The column-level `.unique()` constraints are backed by indexes of their own name.
    const uniques = new Set(
      tables.flatMap((table) =>
        getTableConfig(table)
          .columns.filter((column) => column.isUnique)
          .map((column) => column.uniqueName),
      ),
    );
    expect(undeclared.filter((name) => !uniques.has(name))).toEqual([]);
  });

  it('creates every primary key, unique constraint and foreign key', async () => {
    const { rows } = await client.query<{
      table_name: string;
      name: string;
      type: 'p' | 'u' | 'f' | 'c';
      columns: string[];
      foreign_table: string | null;
      foreign_columns: string[] | null;
      on_delete: string;
    }>(
      `SELECT t.relname AS table_name, c.conname AS name, c.contype AS type, f.relname AS foreign_table,
              array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns,
              array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, n)
                      JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS foreign_columns,
              c.confdeltype AS on_delete
         FROM pg_constraint c
         JOIN pg_class t ON t.oid = c.conrelid
         JOIN pg_namespace ns ON ns.oid = t.relnamespace
         LEFT JOIN pg_class f ON f.oid = c.confrelid
        WHERE ns.nspname = 'public' AND c.contype IN ('p', 'u', 'f')`,
    );
    const onDelete: Record<string, string> = {
      a: 'no action',
      r: 'restrict',
      c: 'cascade',
      n: 'set null',
      d: 'set default',
    };
    const actual = rows
      .filter((row) => row.table_name !== 'catalog_version')
      .map((row) =>
        row.type === 'f'
          ? `${row.table_name} foreign key (${row.columns}) references ${row.foreign_table} (${row.foreign_columns}) on delete ${onDelete[row.on_delete]}`
          : `${row.table_name} ${row.type === 'p' ? 'primary key' : `unique ${row.name}`} (${row.columns})`,
      );
    const expected = tables.flatMap((table) => {
      const config = getTableConfig(table);
      const primary = config.columns.filter((column) => column.primary).map((column) => column.name);
      return [
        ...(primary.length > 0 ? [`${config.name} primary key (${primary})`] : []),
        ...config.primaryKeys.map((key) => `${config.name} primary key (${key.columns.map((c) => c.name)})`),
        ...config.columns
          .filter((column) => column.isUnique)
          .map((column) => `${config.name} unique ${column.uniqueName} (${column.name})`),
        ...config.foreignKeys.map((key) => {
          const reference = key.reference();
          return `${config.name} foreign key (${reference.columns.map((c) => c.name)}) references ${getTableConfig(reference.foreignTable).name} (${reference.foreignColumns.map((c) => c.name)}) on delete ${key.onDelete ?? 'no action'}`;
        }),
      ];
    });
    expect(actual.sort()).toEqual(expected.sort());
  });

  it('adds what the migrations write by hand: pg_trgm, the catalogue version and its trigger, immutable invoices', async () => {
    const extensions = await client.query(`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
    expect(extensions.rowCount).toBe(1);
    const triggers = await client.query<{ tgname: string }>(
      `SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname`,
    );
    expect(triggers.rows.map((row) => row.tgname)).toEqual([
      // The order history is append-only like the invoices (issue 40).
      'booking_history_immutable',
      // The gate's orderings, numbered at commit (ADR 0045, migrations-pg gate_positions).
      'bookings_gate_list_position',
      'credit_notes_immutable',
      'events_status_moves_catalog_version',
      'gate_scans_feed_position',
      'invoices_immutable',
    ]);

    await client.query(
      `INSERT INTO events (id, name, category, city, start_time, created_at)
       VALUES ('e1', 'Coldplay: Music of the Spheres', 'Music', 'Mumbai', '2026-01-18T14:00:00.000Z', '2025-11-01T00:00:00.000Z')`,
    );
    const before = await client.query<{ version: number }>('SELECT version FROM catalog_version');
    await client.query(`UPDATE events SET status = 'draft' WHERE id = 'e1'`);
    const after = await client.query<{ version: number }>('SELECT version FROM catalog_version');
    expect(after.rows[0]?.version).toBe((before.rows[0]?.version ?? 0) + 1);
  });

  it('finds events by words, ranked by field, and by a mistyped part of a word (tsvector and pg_trgm)', async () => {
    await client.query(
      `INSERT INTO events (id, name, category, city, start_time, created_at) VALUES
         ('e2', 'Sunburn Arena', 'Music', 'Goa', '2026-01-18T14:00:00.000Z', '2025-11-01T00:00:00.000Z'),
         ('e3', 'Stand-up night', 'Comedy', 'Pune', '2026-01-18T14:00:00.000Z', '2025-11-01T00:00:00.000Z')`,
    );
    await client.query(
      `INSERT INTO event_search (event_id, name, artists, venue, city, category) VALUES
         ('e2', 'Sunburn Arena', 'Alan Walker', 'Vagator Beach', 'Goa', 'Music'),
         ('e3', 'Stand-up night', 'Zakir Khan', 'Walker Hall', 'Pune', 'Comedy')`,
    );
    const words = await client.query<{ event_id: string }>(
      `SELECT event_id FROM event_search WHERE document @@ plainto_tsquery('simple', 'walker')
        ORDER BY ts_rank(document, plainto_tsquery('simple', 'walker')) DESC`,
    );
    // An artist (weight A) outranks a venue (weight B).
    expect(words.rows.map((row) => row.event_id)).toEqual(['e2', 'e3']);
    // A letter missing ('sunbun'): word similarity, as a buyer types a part of a name with a slip.
    const typo = await client.query<{ event_id: string }>(
      `SELECT event_id FROM event_search WHERE 'sunbun' <% name OR 'sunbun' <% artists`,
    );
    expect(typo.rows.map((row) => row.event_id)).toEqual(['e2']);
    const part = await client.query<{ event_id: string }>(
      `SELECT event_id FROM event_search WHERE name ILIKE '%unbu%'`,
    );
    expect(part.rows.map((row) => row.event_id)).toEqual(['e2']);
  });

  it('finds nothing left to apply when migrated again', async () => {
    const { rows } = await client.query<{ count: string }>(
      'SELECT count(*) FROM drizzle.__drizzle_migrations',
    );
    await migrate(drizzle(client), { migrationsFolder: PG_MIGRATIONS_FOLDER });
    const again = await client.query<{ count: string }>('SELECT count(*) FROM drizzle.__drizzle_migrations');
    expect(again.rows[0]?.count).toBe(rows[0]?.count);
  });
});

/**
 * The server to test on: TEST_DATABASE_URL, else one started by scripts/start-test-postgres.sh. Undefined
 * (the file skips) only outside CI, where PostgreSQL is not installed.
 */
