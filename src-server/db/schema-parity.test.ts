import { is, SQL } from 'drizzle-orm';
import { PgDialect, PgTable, getTableConfig as pgTableConfig } from 'drizzle-orm/pg-core';
import { SQLiteSyncDialect, SQLiteTable, getTableConfig as sqliteTableConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as sqliteSchema from './schema/index.ts';
import * as pgSchema from './schema-pg/index.ts';

// The two engines' schemas are written twice (docs/decisions/0035-two-engines.md): this test keeps them in
// step. Each table is described as one line per fact (column, primary key, index, foreign key, check) in
// words that mean the same on both engines, and the two descriptions must be equal; a failure lists the
// lines each side lacks.

/** Tables one engine has and the other has not, each with its reason. */
const ONLY_ON_SQLITE: Record<string, string> = {
  event_search_keys:
    "maps the FTS5 table's integer rowids to event ids; PostgreSQL's event_search is keyed by the event id itself",
};
const ONLY_ON_POSTGRES: Record<string, string> = {
  event_search:
    "catalogue search as a tsvector column (GIN) and pg_trgm indexes; SQLite's is the FTS5 virtual table of migrations/0014, outside Drizzle's schema",
};

/**
 * What a SQLite column type is on PostgreSQL. Integers may become bigint (paise columns, whose sums and
 * large orders can pass 2^31, which SQLite's 64-bit integers never had to think about).
 */
const TYPE_FAMILY: Record<string, string> = {
  SQLiteText: 'text',
  PgText: 'text',
  SQLiteTextJson: 'json',
  PgJsonb: 'json',
  SQLiteBoolean: 'boolean',
  PgBoolean: 'boolean',
  SQLiteInteger: 'integer',
  PgInteger: 'integer',
  PgBigInt53: 'integer',
  SQLiteReal: 'real',
  PgDoublePrecision: 'real',
};

describe('the PostgreSQL schema mirrors the SQLite schema', () => {
  const sqliteTables = tablesOf<SQLiteTable>(sqliteSchema, SQLiteTable);
  const pgTables = tablesOf<PgTable>(pgSchema, PgTable);

  it('has the same tables, apart from the listed exceptions', () => {
    const sqliteNames = [...sqliteTables.keys()].filter((name) => !(name in ONLY_ON_SQLITE));
    const pgNames = [...pgTables.keys()].filter((name) => !(name in ONLY_ON_POSTGRES));
    expect(difference(sqliteNames, pgNames), 'tables missing from schema-pg').toEqual([]);
    expect(
      difference(pgNames, sqliteNames),
      'tables only in schema-pg (list them in ONLY_ON_POSTGRES)',
    ).toEqual([]);
  });

  it('lists only exceptions that exist', () => {
    for (const name of Object.keys(ONLY_ON_SQLITE)) expect(sqliteTables.has(name), name).toBe(true);
    for (const name of Object.keys(ONLY_ON_POSTGRES)) expect(pgTables.has(name), name).toBe(true);
  });

  const shared = [...sqliteTables.keys()].filter((name) => pgTables.has(name));
  it.each(shared)(
    '%s: same columns, nullability, defaults, keys, indexes, foreign keys and checks',
    (name) => {
      const sqlite = describeSqliteTable(sqliteTables.get(name) as SQLiteTable);
      const pg = describePgTable(pgTables.get(name) as PgTable);
      const diff = [
        ...difference(sqlite, pg).map((line) => `  only on SQLite:     ${line}`),
        ...difference(pg, sqlite).map((line) => `  only on PostgreSQL: ${line}`),
      ];
      expect(diff.join('\n'), `${name} differs between src-server/db/schema and schema-pg`).toBe('');
    },
  );

  it('describes a table by what it declares, so a missing column or index shows up', () => {
    // The comparison itself: a table of each engine that lacks an index and a nullability must differ.
    const lines = describePgTable(pgTables.get('holds') as PgTable);
    expect(lines).toContain("index holds_active_user_slot_idx on (user_id, slot_id) where status = 'active'");
    expect(lines).toContain('column expires_at text not null');
    expect(lines).toContain(
      'foreign key (user_id) references users (id) on delete no action on update no action',
    );
    expect(describeSqliteTable(sqliteTables.get('holds') as SQLiteTable)).toEqual(
      expect.arrayContaining(lines),
    );
  });
});

function tablesOf<T extends SQLiteTable | PgTable>(
  schema: Record<string, unknown>,
  kind: typeof SQLiteTable | typeof PgTable,
) {
  const tables = new Map<string, T>();
  for (const value of Object.values(schema)) {
    if (is(value, PgTable) && kind === PgTable) tables.set(pgTableConfig(value).name, value as T);
    if (is(value, SQLiteTable) && kind === SQLiteTable) tables.set(sqliteTableConfig(value).name, value as T);
  }
  return tables;
}

interface ColumnFacts {
  name: string;
  columnType: string;
  notNull: boolean;
  primary: boolean;
  default: unknown;
  hasDefault: boolean;
  isUnique: boolean;
  uniqueName?: string;
  /** SQLite `autoIncrement` or a PostgreSQL identity: the database numbers the rows. */
  numbered: boolean;
}

interface TableFacts {
  columns: ColumnFacts[];
  primaryKeys: string[][];
  indexes: { name: string; columns: string[]; unique: boolean; where?: string }[];
  foreignKeys: {
    columns: string[];
    table: string;
    foreignColumns: string[];
    onDelete: string;
    onUpdate: string;
  }[];
  uniques: { name?: string; columns: string[] }[];
  checks: { name: string; sql: string }[];
}

function describeSqliteTable(table: SQLiteTable): string[] {
  const config = sqliteTableConfig(table);
  const dialect = new SQLiteSyncDialect();
  return describeFacts({
    columns: config.columns.map((column) => ({
      name: column.name,
      columnType: column.columnType,
      notNull: column.notNull,
      primary: column.primary,
      default: column.default,
      // An INTEGER PRIMARY KEY is SQLite's rowid, which Drizzle counts as a default even without
      // autoIncrement; the app writes those ids itself (the one-row tables' id 1), so PostgreSQL has none.
      hasDefault:
        column.hasDefault &&
        !(column.primary && column.columnType === 'SQLiteInteger' && column.default === undefined),
      isUnique: column.isUnique,
      uniqueName: column.uniqueName,
      numbered: 'autoIncrement' in column && column.autoIncrement === true,
    })),
    primaryKeys: config.primaryKeys.map((key) => key.columns.map((column) => column.name)),
    indexes: config.indexes.map((index) => ({
      name: index.config.name,
      columns: index.config.columns.map((column) => ('name' in column ? column.name : String(column))),
      unique: index.config.unique,
      where: index.config.where ? dialect.sqlToQuery(index.config.where).sql : undefined,
    })),
    foreignKeys: config.foreignKeys.map((key) => {
      const reference = key.reference();
      return {
        columns: reference.columns.map((column) => column.name),
        table: sqliteTableConfig(reference.foreignTable).name,
        foreignColumns: reference.foreignColumns.map((column) => column.name),
        onDelete: key.onDelete ?? 'no action',
        onUpdate: key.onUpdate ?? 'no action',
      };
    }),
    uniques: config.uniqueConstraints.map((unique) => ({
      name: unique.name,
      columns: unique.columns.map((column) => column.name),
    })),
    checks: config.checks.map((check) => ({ name: check.name, sql: dialect.sqlToQuery(check.value).sql })),
  });
}

function describePgTable(table: PgTable): string[] {
  const config = pgTableConfig(table);
  const dialect = new PgDialect();
  return describeFacts({
    columns: config.columns.map((column) => ({
      name: column.name,
      columnType: column.columnType,
      notNull: column.notNull,
      primary: column.primary,
      default: column.default,
      hasDefault: column.hasDefault,
      isUnique: column.isUnique,
      uniqueName: column.uniqueName,
      numbered: column.generatedIdentity !== undefined,
    })),
    primaryKeys: config.primaryKeys.map((key) => key.columns.map((column) => column.name)),
    indexes: config.indexes.map((index) => ({
      name: index.config.name ?? '(unnamed)',
      columns: index.config.columns.map((column) =>
        is(column, SQL) ? dialect.sqlToQuery(column).sql : (column as { name: string }).name,
      ),
      unique: index.config.unique,
      where: index.config.where ? dialect.sqlToQuery(index.config.where).sql : undefined,
    })),
    foreignKeys: config.foreignKeys.map((key) => {
      const reference = key.reference();
      return {
        columns: reference.columns.map((column) => column.name),
        table: pgTableConfig(reference.foreignTable).name,
        foreignColumns: reference.foreignColumns.map((column) => column.name),
        onDelete: key.onDelete ?? 'no action',
        onUpdate: key.onUpdate ?? 'no action',
      };
    }),
    uniques: config.uniqueConstraints.map((unique) => ({
      name: unique.name,
      columns: unique.columns.map((column) => column.name),
    })),
    checks: config.checks.map((check) => ({ name: check.name, sql: dialect.sqlToQuery(check.value).sql })),
  });
}

/** One line per fact, in words both engines share, sorted so that declaration order does not matter. */
function describeFacts(facts: TableFacts): string[] {
  const lines: string[] = [];
  for (const column of facts.columns) {
    const family = TYPE_FAMILY[column.columnType] ?? `unmapped type ${column.columnType}`;
    const parts = [`column ${column.name} ${family}`, column.notNull ? 'not null' : 'null'];
    if (column.primary) parts.push('primary key');
    if (column.numbered) parts.push('numbered by the database');
    // A numbered column's "default" is the numbering itself on both engines.
    if (column.hasDefault && !column.numbered) parts.push(`default ${describeDefault(column.default)}`);
    if (column.isUnique) parts.push(`unique as ${column.uniqueName}`);
    lines.push(parts.join(' '));
  }
  for (const columns of facts.primaryKeys) lines.push(`primary key (${columns.join(', ')})`);
  for (const index of facts.indexes) {
    const where = index.where ? ` where ${index.where}` : '';
    lines.push(
      `${index.unique ? 'unique index' : 'index'} ${index.name} on (${index.columns.join(', ')})${where}`,
    );
  }
  for (const key of facts.foreignKeys) {
    lines.push(
      `foreign key (${key.columns.join(', ')}) references ${key.table} (${key.foreignColumns.join(', ')}) on delete ${key.onDelete} on update ${key.onUpdate}`,
    );
  }
  for (const unique of facts.uniques)
    lines.push(`unique ${unique.name ?? ''} (${unique.columns.join(', ')})`);
  for (const check of facts.checks) lines.push(`check ${check.name}: ${check.sql}`);
  return lines.sort();
}

function describeDefault(value: unknown): string {
  if (is(value, SQL)) return `sql ${new PgDialect().sqlToQuery(value).sql}`;
  return JSON.stringify(value) ?? 'undefined';
}

function difference(a: readonly string[], b: readonly string[]): string[] {
  const other = new Set(b);
  return a.filter((item) => !other.has(item));
}
