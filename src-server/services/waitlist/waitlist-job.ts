import { and, inArray, sql } from 'drizzle-orm';
import type { BackgroundJob } from '../../background-job.ts';
import type { Db } from '../../db/client.ts';
import type { PgDb } from '../../db/engine/postgres.ts';
import { isPostgres } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { lockForOfferSteps, offerReturnedSeatsSteps, type WaitlistDeps } from './offer-returned-seats.ts';
import { endOfferOfHoldSteps, markOfferBookedSteps } from './pass-on.ts';

/**
 * The safety net behind the offers made where seats return (ADR 0027): settles offers whose hold ended
 * some other way (a Proceed on the same slot replaced it, a payment converted it) and offers any seats
 * that are on sale while people wait (capacity turned live again, a path that returns seats without
 * passing them on). Everything it reads is in the database, so after a restart it simply carries on.
 */
export async function tendWaitlists(deps: WaitlistDeps & { db: Db }, now: Date): Promise<number> {
  const { db } = deps;
  const run = runnerFor(db);
  const live = isPostgres(db) ? await liveEntriesOnPostgres(db as unknown as PgDb) : liveEntriesOnSqlite(db);
  const types = new Set<string>();
  for (const entry of live) {
    if (entry.status === 'offered' && entry.holdId && entry.holdStatus !== 'active') {
      const holdId = entry.holdId;
      await run.write(function* (tx) {
        if (entry.holdStatus === 'converted') yield* markOfferBookedSteps(tx, holdId, now);
        else yield* endOfferOfHoldSteps(tx, holdId, 'lapsed', now);
      });
      types.add(entry.ticketTypeId);
    } else if (entry.status === 'waiting' && entry.available > 0) {
      types.add(entry.ticketTypeId);
    }
  }
  let offered = 0;
  for (const ticketTypeId of types) {
    offered += (await run.write((tx) => offerWaitingSteps(tx, deps, ticketTypeId, now))).length;
  }
  return offered;
}

interface LiveEntry {
  ticketTypeId: string;
  status: 'waiting' | 'offered';
  holdId: string | null;
  holdStatus: string | null;
  available: number;
}

/**
 * Only the live entries, read through the partial index that holds just them (INDEXED BY: SQLite's
 * planner would otherwise read every entry ever made, ended ones included).
 */
function liveEntriesOnSqlite(db: Db): LiveEntry[] {
  return db.all<LiveEntry>(sql`
    select e.ticket_type_id as ticketTypeId, e.status, e.offer_hold_id as holdId,
      h.status as holdStatus, t.available_tickets as available
    from waitlist_entries e indexed by waitlist_entries_live_idx
    join ticket_types t on t.id = e.ticket_type_id
    left join holds h on h.id = e.offer_hold_id
    where e.status in ('waiting', 'offered')
  `);
}

/** The same on PostgreSQL, whose planner takes the partial index for this condition by itself. */
async function liveEntriesOnPostgres(db: PgDb): Promise<LiveEntry[]> {
  const { rows } = await db.$client.query<LiveEntry>(`
    select e.ticket_type_id as "ticketTypeId", e.status, e.offer_hold_id as "holdId",
      h.status as "holdStatus", t.available_tickets as available
    from waitlist_entries e
    join ticket_types t on t.id = e.ticket_type_id
    left join holds h on h.id = e.offer_hold_id
    where e.status in ('waiting', 'offered')
  `);
  return rows;
}

/**
 * The safety net's offer of one type, written once for both engines (ADR 0045): no seats came back in
 * this transaction, so it first takes the locks a return would have (the type's row, then its quotas'),
 * which keep it and a cancellation's offer of the same list apart on PostgreSQL.
 */
export function* offerWaitingSteps(
  tx: DbOrTx,
  deps: WaitlistDeps,
  ticketTypeId: string,
  now: Date,
): Steps<string[]> {
  yield* lockForOfferSteps(tx, ticketTypeId);
  return yield* offerReturnedSeatsSteps(tx, deps, ticketTypeId, now);
}

/** Runs the safety net every 30 s, and once at start (a restart mid-offer carries on from the database). */
export const waitlistJob: BackgroundJob = {
  name: 'waitlist-offers',
  intervalMs: 30_000,
  runAtStart: true,
  run: async (deps) => {
    const offered = await tendWaitlists(deps, deps.clock.now());
    if (offered > 0) deps.logger.info({ offered }, 'waiting-list offers made');
  },
};

/**
 * A cancelled slot ends its waiting lists, inside the cancellation's transaction (before its holds are
 * released, so no seat is offered on): the entries lapse without a mail, as nothing can be bought.
 */
export function* endWaitlistsOfSlotsSteps(tx: DbOrTx, slotIds: string[], now: Date): Steps<void> {
  if (slotIds.length === 0) return;
  const { ticketTypes, waitlistEntries } = tablesOf(tx);
  yield* changes(
    tx
      .update(waitlistEntries)
      .set({ status: 'lapsed', endedAt: now.toISOString() })
      .where(
        and(
          // By ticket type, so waitlist_entries_queue_idx finds the live entries (there is no slot index).
          inArray(
            waitlistEntries.ticketTypeId,
            sql`(select ${ticketTypes.id} from ${ticketTypes} where ${inArray(ticketTypes.slotId, slotIds)})`,
          ),
          sql`${waitlistEntries.status} in ('waiting', 'offered')`,
        ),
      ),
  );
}
