import type * as sqliteSchema from '../schema/index.ts';

/** Every table, as services see them: typed by the SQLite schema, whose TypeScript shapes both share. */
export type Tables = typeof sqliteSchema;

/**
 * The tables of the engine `db` (or a transaction of it) runs on (ADR 0045): the schema the composition
 * root opened it with, `schema/` on SQLite and `schema-pg/` on PostgreSQL. A transition that takes its
 * tables from here builds each statement in its engine's own dialect, with the same code.
 */
export function tablesOf(db: object): Tables {
  const schema = (db as { _?: { fullSchema?: Partial<Tables> } })._?.fullSchema;
  if (!schema?.events) throw new Error('tablesOf: this database was opened without its schema');
  return schema as Tables;
}
