import { type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { isPostgres } from './engine/reads.ts';

/** Typed text inside a LIKE pattern: a %, _ or \ the user typed matches itself (with likeEscaped's ESCAPE). */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `column LIKE pattern ESCAPE '\'` for a pattern built with escapeLike (LIKE ignores ASCII case). */
export const likeEscaped = (column: SQLiteColumn, pattern: string): SQL =>
  sql`${column} like ${pattern} escape '\\'`;

/**
 * likeEscaped on the engine of `db`: PostgreSQL's LIKE heeds case, so it matches with ILIKE there, as
 * SQLite's LIKE does (ignoring case).
 */
export const likeEscapedOn = (db: object, column: SQLiteColumn, pattern: string): SQL =>
  isPostgres(db) ? sql`${column} ilike ${pattern} escape '\\'` : likeEscaped(column, pattern);
