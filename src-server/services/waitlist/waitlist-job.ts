import { and, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { BackgroundJob } from '../../background-job.ts';
import type { Db } from '../../db/client.ts';
import { ticketTypes } from '../../db/schema/catalog.ts';
import { waitlistEntries } from '../../db/schema/on-sale.ts';
import { holds } from '../../db/schema/payments.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { offerReturnedSeats, type WaitlistDeps } from './offer-returned-seats.ts';
import { endOfferOfHold, markOfferBooked } from './pass-on.ts';

/**
 * The safety net behind the offers made where seats return (ADR 0027): settles offers whose hold ended
 * some other way (a Proceed on the same slot replaced it, a payment converted it) and offers any seats
 * that are on sale while people wait (capacity turned live again, a path that returns seats without
 * passing them on). Everything it reads is in the database, so after a restart it simply carries on.
 */
export async function tendWaitlists(deps: WaitlistDeps & { db: Db }, now: Date): Promise<number> {
  const { db } = deps;
  const ended = db
    .select({ holdId: holds.id, holdStatus: holds.status, ticketTypeId: waitlistEntries.ticketTypeId })
    .from(waitlistEntries)
    .innerJoin(holds, eq(holds.id, waitlistEntries.offerHoldId))
    .where(and(sql`${waitlistEntries.status} = 'offered'`, ne(holds.status, 'active')))
    .all();
  const types = new Set<string>();
  for (const offer of ended) {
    await writeTransaction(db, (tx) => {
      if (offer.holdStatus === 'converted') markOfferBooked(tx, offer.holdId, now);
      else endOfferOfHold(tx, offer.holdId, 'lapsed', now);
    });
    types.add(offer.ticketTypeId);
  }
  const waiting = db
    .selectDistinct({ ticketTypeId: waitlistEntries.ticketTypeId })
    .from(waitlistEntries)
    .innerJoin(ticketTypes, eq(ticketTypes.id, waitlistEntries.ticketTypeId))
    .where(and(sql`${waitlistEntries.status} = 'waiting'`, gt(ticketTypes.availableTickets, 0)))
    .all();
  for (const { ticketTypeId } of waiting) types.add(ticketTypeId);
  let offered = 0;
  for (const ticketTypeId of types) {
    offered += (await writeTransaction(db, (tx) => offerReturnedSeats(tx, deps, ticketTypeId, now))).length;
  }
  return offered;
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
export function endWaitlistsOfSlots(tx: Pick<Db, 'update'>, slotIds: string[], now: Date): void {
  if (slotIds.length === 0) return;
  tx.update(waitlistEntries)
    .set({ status: 'lapsed', endedAt: now.toISOString() })
    .where(
      and(inArray(waitlistEntries.slotId, slotIds), sql`${waitlistEntries.status} in ('waiting', 'offered')`),
    )
    .run();
}
