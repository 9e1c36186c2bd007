import { is, sql } from 'drizzle-orm';
import { PgDatabase } from 'drizzle-orm/pg-core';
import type { BackgroundJob } from '../../background-job.ts';
import type { Db } from '../../db/client.ts';
import type { PgDb } from '../../db/engine/postgres.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { dropEndedFromSearchOnPostgres } from './event-search-pg.ts';

/**
 * Takes the events that have ended out of the search index (`event_search` and its keys). Search skips
 * an ended event's document when it loads the page, but the ranking does not know about time: a popular
 * artist's past shows, ranked above their next one, took up the page's reads and its count, and the index
 * grew with every event ever published. Reads the index's keys (as many as the live catalogue, since this
 * keeps ended ones out), each event by its key; at most `limit` removed per call. Moves `catalog_version`
 * when it removed any, so cached searches are recomputed.
 */
export async function dropEndedFromSearch(db: Db | PgDb, now: Date, limit = 1000): Promise<number> {
  if (is(db, PgDatabase)) return dropEndedFromSearchOnPostgres(db as PgDb, now, limit);
  return writeTransaction(db as Db, (tx) => {
    const ended = tx.all<{ eventId: string; docId: number }>(sql`
      select k.event_id as eventId, k.doc_id as docId from event_search_keys k
      cross join events e on e.id = k.event_id
      where e.last_ends_at < ${now.toISOString()}
      limit ${limit}`);
    for (const { eventId, docId } of ended) {
      tx.run(sql`delete from event_search where rowid = ${docId}`);
      tx.run(sql`delete from event_search_keys where event_id = ${eventId}`);
    }
    if (ended.length > 0) tx.run(sql`update catalog_version set version = version + 1 where id = 1`);
    return ended.length;
  });
}

/** Every ten minutes (and at start): an event drops out of search soon after its last slot ends. */
export const searchCleanupJob: BackgroundJob = {
  name: 'search-cleanup',
  intervalMs: 10 * 60_000,
  runAtStart: true,
  run: async (deps) => {
    const dropped = await dropEndedFromSearch(deps.db, deps.clock.now());
    if (dropped > 0) deps.logger.info({ dropped }, 'ended events removed from search');
  },
};
