import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isPostgres } from '../../db/engine/reads.ts';
import type { Steps } from '../../db/engine/steps.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { eventSearchStatements } from './event-search-pg.ts';

/**
 * Rewrites what the catalogue keeps about one event so that lists and search never aggregate per
 * request (docs/decisions/0021-catalogue-pages-and-search.md):
 * - `events.lowest_price_paise`: the lowest price of any of its ticket types ("from ₹X"), null without one;
 *   hidden types (sold only with an access code, ADR 0038) are not offered to everyone, so not counted;
 * - `events.last_ends_at`: the last instant it is still on (its last slot's end, else its own end or
 *   start), which the lists' "upcoming" filter reads from their index;
 * - its full-text document (`event_search`): name, artists, venue, city and category, present only
 *   while the event is published, so drafts, unpublished and cancelled events are never found.
 *
 * Then it moves `catalog_version`, which the public micro-cache keys lists and searches by.
 *
 * Every console edit runs it through `editEvent` (services/event-editor/event-version.ts), after its
 * change, in its write transaction; only the writes that do not claim a version first call it themselves
 * (creating an event, publishing, the test fixtures). Cheap: it reads one
 * event's rows through their indexes.
 */
export function refreshEventListing(tx: WriteTx | Db, eventId: string): void {
  tx.run(sql`
    update events set
      lowest_price_paise = (
        select min(tt.price_paise) from ticket_types tt
        join slots s on s.id = tt.slot_id
        join event_dates d on d.id = s.event_date_id
        where d.event_id = events.id and tt.is_hidden = 0
      ),
      last_ends_at = max(
        coalesce(end_time, start_time),
        coalesce((
          select max(s.end_time) from slots s
          join event_dates d on d.id = s.event_date_id
          where d.event_id = events.id
        ), '')
      )
    where id = ${eventId}`);
  refreshEventSearch(tx, eventId);
  // Cached lists and searches are keyed by this (http/public-query-cache.ts): they are now out of date.
  tx.run(sql`update catalog_version set version = version + 1 where id = 1`);
}

/**
 * `refreshEventListing` as steps of the caller's write transaction, on either engine (ADR 0045). SQLite
 * runs its statements (FTS5's raw SQL) at once, as before: its steps run synchronously inside the
 * transaction anyway. PostgreSQL's are the same rewrite in its own SQL (`greatest`, a boolean
 * `is_hidden`) and its own search table (event-search-pg.ts), awaited in order.
 */
export function* refreshEventListingSteps(tx: WriteTx, eventId: string): Steps<void> {
  if (!isPostgres(tx)) {
    refreshEventListing(tx, eventId);
    return;
  }
  yield* execute(
    tx,
    sql`
    update events set
      lowest_price_paise = (
        select min(tt.price_paise) from ticket_types tt
        join slots s on s.id = tt.slot_id
        join event_dates d on d.id = s.event_date_id
        where d.event_id = events.id and not tt.is_hidden
      ),
      last_ends_at = greatest(
        coalesce(end_time, start_time),
        coalesce((
          select max(s.end_time) from slots s
          join event_dates d on d.id = s.event_date_id
          where d.event_id = events.id
        ), '')
      )
    where id = ${eventId}`,
  );
  for (const statement of eventSearchStatements(eventId)) yield* execute(tx, statement);
  yield* execute(tx, sql`update catalog_version set version = version + 1 where id = 1`);
}

/** A raw statement of PostgreSQL's, as a step (`execute` builds it; the driver awaits it). */
function* execute(tx: WriteTx, query: SQL): Steps<void> {
  const session = tx as unknown as { execute(query: SQL): PromiseLike<unknown> };
  yield { kind: 'changes', query: session.execute(query) };
}

/** Rewrites (or removes) the event's full-text document; part of refreshEventListing. */
export function refreshEventSearch(tx: WriteTx | Db, eventId: string): void {
  const row = tx.get<{
    status: string;
    name: string;
    venue: string;
    city: string;
    category: string;
    artists: string | null;
    docId: number | null;
  }>(sql`
    select e.status as status, e.name as name, e.event_location_text as venue, e.city as city,
      e.category as category, k.doc_id as docId,
      (select group_concat(a.name, ' · ') from artists a where a.event_id = e.id) as artists
    from events e left join event_search_keys k on k.event_id = e.id
    where e.id = ${eventId}`);
  if (!row) return;
  if (row.docId !== null) tx.run(sql`delete from event_search where rowid = ${row.docId}`);
  if (row.status !== 'published') {
    if (row.docId !== null) tx.run(sql`delete from event_search_keys where event_id = ${eventId}`);
    return;
  }
  let docId = row.docId;
  if (docId === null) {
    docId = tx.get<{ next: number }>(
      sql`select coalesce(max(doc_id), 0) + 1 as next from event_search_keys`,
    )!.next;
    tx.run(sql`insert into event_search_keys (event_id, doc_id) values (${eventId}, ${docId})`);
  }
  tx.run(sql`
    insert into event_search (rowid, name, artists, venue, city, category)
    values (${docId}, ${row.name}, ${row.artists ?? ''}, ${row.venue}, ${row.city}, ${row.category})`);
}
