import { type SQL, sql } from 'drizzle-orm';

/**
 * A prepared query's placeholder wrapped in a CAST, for the statements on Proceed's path whose plain
 * `?` SQLite's planner looks at: in a join or under ORDER BY / LIMIT the full planner runs and weighs the
 * tables' partial indexes against each WHERE term, and a bound value it looked at marks the statement
 * to be prepared again whenever a value is bound, i.e. on every execution through better-sqlite3. That
 * cost 4–6 µs a statement (the session's join, the event's tax join, the hoarding rules' ended holds,
 * twice): more than the statement itself. A CAST is not looked through; the index is used as before
 * (EXPLAIN QUERY PLAN alike), and PostgreSQL reads `cast($1 as text)` as the text it already was
 * (docs/benchmarks.md, "Issue 40's last bar: every Proceed cheaper").
 */
export function textParam(name: string): SQL<string> {
  return sql<string>`cast(${sql.placeholder(name)} as text)`;
}

/** As `textParam`, for a LIMIT. */
export function integerParam(name: string): SQL<number> {
  return sql<number>`cast(${sql.placeholder(name)} as integer)`;
}
