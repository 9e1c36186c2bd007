import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import type { TicketDetails } from '../../../shared/checkout-schemas.ts';
import { MAX_TICKETS_PER_TYPE, priceBreakdown, subtotalOf } from '../../../shared/pricing.ts';
import type { Db } from '../../db/client.ts';
import { ticketTypes } from '../../db/schema/catalog.ts';
import type * as schema from '../../db/schema/index.ts';
import { holdItems, holds } from '../../db/schema/payments.ts';
import { conflict, DomainError } from '../../errors.ts';

/** The database or an open transaction: every helper here runs inside the caller's transaction. */
export type DbOrTx = BaseSQLiteDatabase<'sync', Database.RunResult, typeof schema>;

/** The payment session the buyer sees as a countdown (spec §9: 300 000 ms). */
export const PAYMENT_SESSION_MS = 300_000;
/** How long a hold outlives the session, so a payment completed at the last second can still be verified. */
export const HOLD_GRACE_MS = 120_000;

export interface HoldLine {
  ticketTypeId: string;
  quantity: number;
}

export interface ReserveInput {
  userId: string;
  eventId: string;
  eventDateId: string;
  slotId: string;
  lines: HoldLine[];
  details: TicketDetails;
  userCity: string | null;
  platformFeeRate: number | null;
}

export interface Hold {
  id: string;
  subtotalPaise: number;
  feePaise: number;
  igstPaise: number;
  totalPaise: number;
  sessionExpiresAt: string;
  expiresAt: string;
}

/**
 * Takes the seats at Proceed, before any payment, in one BEGIN IMMEDIATE transaction: one conditional
 * UPDATE per ticket type (never below zero, only while live) and a hold only if every one changed a
 * row. The caller has already checked that the ticket types belong to the slot.
 */
export function reserveSeats(db: Db, input: ReserveInput, now: Date): Hold {
  return db.transaction(
    (tx) => {
      const priced = takeSeats(tx, input.lines);
      const amounts = priceBreakdown(subtotalOf(priced), input.platformFeeRate);
      const hold: Hold = {
        id: randomUUID(),
        subtotalPaise: amounts.subtotalPaise,
        feePaise: amounts.feePaise,
        igstPaise: amounts.igstPaise,
        totalPaise: amounts.grandTotalPaise,
        sessionExpiresAt: new Date(now.getTime() + PAYMENT_SESSION_MS).toISOString(),
        expiresAt: new Date(now.getTime() + PAYMENT_SESSION_MS + HOLD_GRACE_MS).toISOString(),
      };
      tx.insert(holds)
        .values({
          ...hold,
          userId: input.userId,
          eventId: input.eventId,
          eventDateId: input.eventDateId,
          slotId: input.slotId,
          details: input.details,
          userCity: input.userCity,
          createdAt: now.toISOString(),
        })
        .run();
      tx.insert(holdItems)
        .values(
          priced.map((line, position) => ({
            holdId: hold.id,
            ticketTypeId: line.ticketTypeId,
            quantity: line.quantity,
            pricePaise: line.pricePaise,
            position,
          })),
        )
        .run();
      return hold;
    },
    { behavior: 'immediate' },
  );
}

/**
 * Ends an active hold and adds its seats back, in the same transaction. Returns false when the hold
 * was already converted or released (so releasing twice never adds seats twice). With `userId`, only
 * that person's hold is touched.
 */
export function releaseHold(db: Db, holdId: string, reason: string, now: Date, userId?: string): boolean {
  return db.transaction((tx) => releaseHoldIn(tx, holdId, reason, now, userId), { behavior: 'immediate' });
}

export function releaseHoldIn(
  tx: DbOrTx,
  holdId: string,
  reason: string,
  now: Date,
  userId?: string,
): boolean {
  const ended = tx
    .update(holds)
    .set({ status: 'released', releaseReason: reason, endedAt: now.toISOString() })
    .where(
      and(eq(holds.id, holdId), eq(holds.status, 'active'), userId ? eq(holds.userId, userId) : undefined),
    )
    .run();
  if (ended.changes !== 1) return false;
  for (const item of tx.select().from(holdItems).where(eq(holdItems.holdId, holdId)).all()) {
    tx.update(ticketTypes)
      .set({ availableTickets: sql`${ticketTypes.availableTickets} + ${item.quantity}` })
      .where(eq(ticketTypes.id, item.ticketTypeId))
      .run();
  }
  return true;
}

/** Releases a person's other active holds on a slot: a new Proceed replaces an abandoned attempt. */
export function releaseUserHoldsOnSlot(db: Db, userId: string, slotId: string, now: Date): number {
  return db.transaction(
    (tx) => {
      const active = tx
        .select({ id: holds.id })
        .from(holds)
        .where(and(eq(holds.userId, userId), eq(holds.slotId, slotId), eq(holds.status, 'active')))
        .all();
      return active.filter((h) => releaseHoldIn(tx, h.id, 'replaced', now)).length;
    },
    { behavior: 'immediate' },
  );
}

/** The sweeper: releases every hold past its expiry, even if nobody comes back. Returns how many. */
export function sweepExpiredHolds(db: Db, now: Date, limit = 500): number {
  const expired = db
    .select({ id: holds.id })
    .from(holds)
    .where(and(eq(holds.status, 'active'), lte(holds.expiresAt, now.toISOString())))
    .orderBy(asc(holds.expiresAt))
    .limit(limit)
    .all();
  let released = 0;
  for (const hold of expired) if (releaseHold(db, hold.id, 'expired', now)) released += 1;
  return released;
}

/**
 * For a payment that arrived after its hold was released: takes the same seats again if they are
 * still there. All or nothing (a failed line throws, rolling back the caller's transaction savepoint).
 */
export function retakeHeldSeats(tx: DbOrTx, holdId: string): boolean {
  const items = tx
    .select()
    .from(holdItems)
    .where(eq(holdItems.holdId, holdId))
    .orderBy(asc(holdItems.position))
    .all();
  try {
    tx.transaction((savepoint) => {
      takeSeats(savepoint, items);
    });
    return true;
  } catch (err) {
    if (err instanceof DomainError) return false;
    throw err;
  }
}

/** One conditional UPDATE per line; throws the spec's message (rolling back) when a line cannot be taken. */
function takeSeats(tx: DbOrTx, lines: HoldLine[]): (HoldLine & { pricePaise: number })[] {
  const ids = lines.map((l) => l.ticketTypeId);
  const types = new Map(
    tx
      .select({
        id: ticketTypes.id,
        name: ticketTypes.name,
        pricePaise: ticketTypes.pricePaise,
        availableTickets: ticketTypes.availableTickets,
        isLive: ticketTypes.isLive,
      })
      .from(ticketTypes)
      .where(inArray(ticketTypes.id, ids))
      .all()
      .map((t) => [t.id, t]),
  );
  return lines.map((line) => {
    const type = types.get(line.ticketTypeId);
    if (!type) throw new DomainError('NOT_FOUND', 'Event data not available');
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > MAX_TICKETS_PER_TYPE) {
      throw new DomainError('BAD_REQUEST', `You can book at most ${MAX_TICKETS_PER_TYPE} tickets of a type`);
    }
    const taken = tx
      .update(ticketTypes)
      .set({ availableTickets: sql`${ticketTypes.availableTickets} - ${line.quantity}` })
      .where(
        and(
          eq(ticketTypes.id, line.ticketTypeId),
          eq(ticketTypes.isLive, true),
          gte(ticketTypes.availableTickets, line.quantity),
        ),
      )
      .run();
    if (taken.changes !== 1) throw soldOut(tx, line.ticketTypeId, type.name);
    return { ...line, pricePaise: type.pricePaise };
  });
}

/** 'Sold Out' when nothing is left (or the type is off sale), else the spec's insufficient-tickets message. */
function soldOut(tx: DbOrTx, ticketTypeId: string, name: string): DomainError {
  const now = tx
    .select({ available: ticketTypes.availableTickets, isLive: ticketTypes.isLive })
    .from(ticketTypes)
    .where(eq(ticketTypes.id, ticketTypeId))
    .get();
  if (!now?.isLive || now.available <= 0) return conflict(`${name}: Sold Out`);
  return conflict(`Insufficient tickets available for ${name}`);
}
