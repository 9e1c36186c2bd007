import { type SQL, sql } from 'drizzle-orm';
import { type PgDb, pgEngineTransaction } from '../../db/engine/postgres.ts';

/**
 * PostgreSQL's search documents, kept as SQLite's are (ADR 0035, "Search"): by the service that
 * changes an event, in its transaction, not by triggers. SQLite rewrites its FTS5 document in
 * `refreshEventSearch` (refresh-event-listing.ts), which every console edit, publication and fixture
 * runs after its change; its PostgreSQL form runs at the same moment, and `dropEndedFromSearch` takes
 * ended events out on both. (Triggers on `events` and `artists` would also fire while the move tool
 * copies rows, before it rebuilds the index from SQLite's: two writers of one table.)
 */

/** The database or the open transaction the step runs in. */
interface Session {
  execute(query: SQL): PromiseLike<{ rowCount?: number | null }>;
}

/**
 * Rewrites (or removes) the event's search document: present only while the event is published, so
 * drafts, unpublished and cancelled events are never found. `document` (the weighted tsvector) is a
 * generated column and follows the text.
 */
export async function refreshEventSearchOnPostgres(tx: Session, eventId: string): Promise<void> {
  for (const statement of eventSearchStatements(eventId)) await tx.execute(statement);
}

/** The statements of refreshEventSearchOnPostgres, in order (also run as steps: refresh-event-listing.ts). */
export function eventSearchStatements(eventId: string): SQL[] {
  return [
    sql`delete from event_search where event_id = ${eventId}`,
    sql`
    insert into event_search (event_id, name, artists, venue, city, category)
    select e.id, e.name,
      coalesce((select string_agg(a.name, ' · ' order by a.position, a.id) from artists a
        where a.event_id = e.id), ''),
      e.event_location_text, e.city, e.category
    from events e where e.id = ${eventId} and e.status = 'published'`,
  ];
}

/**
 * `dropEndedFromSearch` on PostgreSQL: at most `limit` ended events' documents removed, and
 * `catalog_version` moved when any were, in one transaction.
 */
export function dropEndedFromSearchOnPostgres(db: PgDb, now: Date, limit: number): Promise<number> {
  return pgEngineTransaction(db, async (tx) => {
    const removed =
      (
        await tx.execute(sql`
          delete from event_search where event_id in (
            select s.event_id from event_search s join events e on e.id = s.event_id
            where e.last_ends_at < ${now.toISOString()} limit ${limit})`)
      ).rowCount ?? 0;
    if (removed > 0) await tx.execute(sql`update catalog_version set version = version + 1 where id = 1`);
    return removed;
  });
}
