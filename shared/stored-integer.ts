/**
 * The largest value a 4-byte `integer` column holds: PostgreSQL's (SQLite's integers hold 8 bytes). A
 * number an input compares with such a column (an event's version, a gate cursor) is at most this: a
 * larger one failed the statement on PostgreSQL, a 500 where it is the caller's mistake.
 */
export const MAX_STORED_INTEGER = 2_147_483_647;
