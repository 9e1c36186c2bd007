import { type SQL, sql } from 'drizzle-orm';
import { isPostgres } from '../../db/engine/reads.ts';

/**
 * A stored UTC instant (ISO text) as India-time text cut to the month ('yyyy-MM'), the day
 * ('yyyy-MM-ddT00:00') or the hour ('yyyy-MM-ddTHH:00'), in SQL so the database groups by it. India has
 * kept UTC+05:30 without daylight saving since 1945, so adding 330 minutes is exact. SQLite's strftime
 * and PostgreSQL's to_char give the same text (PostgreSQL reads the ISO text as a timestamp without
 * time zone, the trailing Z ignored, which is the UTC wall time).
 */
export function indiaTimeText(db: object, instant: SQL, unit: 'month' | 'day' | 'hour'): SQL {
  if (isPostgres(db)) {
    const format = { month: 'YYYY-MM', day: 'YYYY-MM-DD"T00:00"', hour: 'YYYY-MM-DD"T"HH24":00"' }[unit];
    return sql`to_char(${instant}::timestamp + interval '330 minutes', ${sql.raw(`'${format}'`)})`;
  }
  const format = { month: '%Y-%m', day: '%Y-%m-%dT00:00', hour: '%Y-%m-%dT%H:00' }[unit];
  return sql`strftime(${sql.raw(`'${format}'`)}, ${instant}, '+330 minutes')`;
}
