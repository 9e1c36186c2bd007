import { and, eq, gt, sql } from 'drizzle-orm';
import { HOARDING_MESSAGES } from '../../../shared/hoarding-messages.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { type Tables, tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
import { integerParam, textParam } from '../../db/unpeeked-params.ts';
import type { Env } from '../../env.ts';
import { conflict, tooManyRequests } from '../../errors.ts';
import { PAYMENT_SESSION_MS } from './payment-session.ts';

/**
 * Proceed's rules against sitting on seats without buying them (issue 19; docs/decisions/0023-hoarding-limits.md).
 * The numbers live here; the three caps can be raised per deployment (HOLD_SEATS_PER_ACCOUNT,
 * HOLD_SEATS_PER_ADDRESS, HOLDS_PER_SLOT_PER_HOUR), e.g. for a load test whose buyers share one address.
 */
export const HOARDING_DEFAULTS = {
  /** Seats one account may hold at once, across every event: two full orders of a type. */
  seatsPerAccount: 20,
  /**
   * Seats held at once from one client address (0: no cap). A household or an office shares one, and so do many
   * mobile buyers behind a carrier's NAT: high enough for those, far below an event's stock.
   */
  seatsPerAddress: 60,
  /** Holds of one slot by one account per `REHOLD_WINDOW_MS` (a few retries after a failed payment). */
  holdsPerSlotPerWindow: 6,
  /**
   * The share of one slot's stock (its ticket types' total) that one account, and one client
   * address, may hold at once, in per cent, but never less than one full order of the slot's most
   * generous type (its per-order maximum). The caps above count seats across all events, so on a small
   * slot they are the whole slot (issue 35: 4 accounts from one address held all 40 seats); these
   * bound the share instead. The address gets more than the account because many honest buyers share
   * one (a campus, an office, a carrier's NAT): a quarter of the slot means at least four addresses to
   * take it all. With the address caps off (HOLD_SEATS_PER_ADDRESS=0) the address share is off too.
   */
  slotSharePerAccountPercent: 10,
  slotSharePerAddressPercent: 25,
} as const;

/** After a payment session ran out with the seats still held, the account waits this long for that slot. */
export const HOLD_COOL_DOWN_MS = 10 * 60_000;
/**
 * The re-hold count's window. It must be at least a payment session plus the cool-down, as
 * `checkHoarding` reads only the holds made within it (hoarding.test.ts checks).
 */
export const REHOLD_WINDOW_MS = 60 * 60_000;

export interface HoardingLimits {
  seatsPerAccount: number;
  seatsPerAddress: number;
  holdsPerSlotPerWindow: number;
}

/** The limits this deployment runs with, read once per environment. */
export const hoardingLimitsOf = oncePer(
  (env: Pick<Env, 'HOLD_SEATS_PER_ACCOUNT' | 'HOLD_SEATS_PER_ADDRESS' | 'HOLDS_PER_SLOT_PER_HOUR'>) => ({
    seatsPerAccount: env.HOLD_SEATS_PER_ACCOUNT ?? HOARDING_DEFAULTS.seatsPerAccount,
    seatsPerAddress: env.HOLD_SEATS_PER_ADDRESS ?? HOARDING_DEFAULTS.seatsPerAddress,
    holdsPerSlotPerWindow: env.HOLDS_PER_SLOT_PER_HOUR ?? HOARDING_DEFAULTS.holdsPerSlotPerWindow,
  }),
);

/** What Proceed knows about who is holding what, for the checks below. */
export interface HoardingContext {
  limits: HoardingLimits;
  /** The client address of the request (services never read the request; the router passes it). */
  clientAddress: string;
  /** The event's per-buyer maximum (the organiser's), or null. */
  maxTicketsPerBuyer: number | null;
}

/** The payment session a replacement hold keeps: the one its first hold started. */
export interface HoldWindow {
  sessionExpiresAt: string;
  expiresAt: string;
}

/** What the hoarding rules let through: the session to keep, and the holds the Proceed replaces. */
export interface HoardingChecked {
  /** The session the new hold keeps when it continues an unpaid one (null: a fresh session). */
  window: HoldWindow | null;
  /**
   * The account's active holds on the slot, as read by the rules in this same transaction: the holds
   * the Proceed replaces, so its caller need not read them again before the order (one statement fewer).
   */
  activeOnSlot: { id: string }[];
}

/**
 * Refuses a Proceed that would let an account (or an address) sit on seats, with the message the
 * buyer sees, or returns the session the new hold must keep when it continues an unpaid one (null: a
 * fresh session) with the holds it replaces. Runs before the gateway order (so a refused hoarder costs no order) and again in the
 * reservation's transaction, where parallel Proceeds are serialised. Every read is an index lookup
 * bounded by the caps themselves. The account's active hold on this slot is left out of the counts:
 * the Proceed replaces it.
 */
export function checkHoarding(
  db: Db,
  context: HoardingContext,
  hold: { userId: string; eventId: string; slotId: string; seats: number },
  now: Date,
): HoardingChecked {
  return runSync(checkHoardingSteps(db, context, hold, now));
}

/**
 * `checkHoarding` written once for both engines (ADR 0045). Its counts are read, then the hold is
 * written on them: on PostgreSQL its caller serialises on `hoardingLockKeys` first.
 */
export function* checkHoardingSteps(
  db: DbOrTx,
  context: HoardingContext,
  hold: { userId: string; eventId: string; slotId: string; seats: number },
  now: Date,
): Steps<HoardingChecked> {
  const { userId, eventId, slotId, seats } = hold;
  const { limits } = context;
  // The account's active holds: few, as the per-account cap keeps them so.
  const active = yield* rows(query(db, 'activeOfAccount'), { userId });
  const replaced = active.filter((h) => h.slotId === slotId);

  // The account's ended holds on the slot, newest first, no more than the per-window cap: the count
  // below refuses at the cap whatever is older, and the newest is the one a cool-down depends on.
  // Only holds made within the re-hold window are read: an older one cannot matter, since a hold's
  // session ends at most PAYMENT_SESSION_MS after it was made (a replacement keeps an earlier session),
  // so its cool-down ended long before (see REHOLD_WINDOW_MS). A buyer's long history on the slot is
  // then never read at all, and Proceed costs the same for them as for a new buyer (issue 21).
  const since = new Date(now.getTime() - REHOLD_WINDOW_MS).toISOString();
  const ended = yield* rows(query(db, 'endedOnSlot'), {
    userId,
    slotId,
    since,
    rows: limits.holdsPerSlotPerWindow,
  });
  // The newest hold on the slot: an active one is always the newest (a new hold ends the one before).
  const latest = replaced[0] ?? ended[0];
  let window: HoldWindow | null = null;
  if (latest && latest.status !== 'converted') {
    const sessionEnd = Date.parse(latest.sessionExpiresAt);
    if (sessionEnd > now.getTime()) {
      // Pressing Proceed again (or after dismissing the payment window) continues the same session:
      // otherwise each Proceed would push the seats' return back by another five minutes.
      window = { sessionExpiresAt: latest.sessionExpiresAt, expiresAt: latest.expiresAt };
    } else {
      // The session is over unpaid: others get a turn before this account again, for as long as the
      // seats were kept from them (coolDownEndsAt).
      const waitMs = coolDownEndsAt(latest) - now.getTime();
      if (waitMs > 0) throw tooManyRequests(HOARDING_MESSAGES.coolDown(minutesOf(waitMs)));
    }
  }

  const recent = [...ended, ...replaced].map((h) => h.createdAt).filter((at) => at > since);
  if (recent.length >= limits.holdsPerSlotPerWindow) {
    const oldest = recent.sort()[0]!;
    const waitMs = Date.parse(oldest) + REHOLD_WINDOW_MS - now.getTime();
    throw tooManyRequests(HOARDING_MESSAGES.tooManyAttempts(minutesOf(waitMs)));
  }

  const kept = active.filter((h) => h.slotId !== slotId);
  const byAccount = sum(kept.map((h) => h.seats));
  if (byAccount + seats > limits.seatsPerAccount) {
    throw conflict(HOARDING_MESSAGES.accountCap(limits.seatsPerAccount));
  }
  // The account's hold on this slot that the new one replaces, if it came from the same address.
  const replacedHere = sum(
    replaced.filter((h) => h.clientAddress === context.clientAddress).map((h) => h.seats),
  );
  if (limits.seatsPerAddress > 0) {
    // Every hold has a seat, so reading one hold past the cap is enough to know it is passed: the read
    // stays bounded however many holds one address has.
    const fromAddress =
      (yield* row(query(db, 'heldFromAddress'), {
        clientAddress: context.clientAddress,
        rows: limits.seatsPerAddress + 1,
      }))?.seats ?? 0;
    if (fromAddress - replacedHere + seats > limits.seatsPerAddress) {
      throw conflict(HOARDING_MESSAGES.addressCap);
    }
  }

  // The fair share of this slot, counted over its active holds, in this same transaction at the hold.
  const stock = yield* row(query(db, 'slotStock'), { slotId });
  const shares = slotSharesOf(stock?.capacity ?? 0, stock?.maxPerOrder ?? 0);
  if (seats > shares.perAccount) throw conflict(HOARDING_MESSAGES.slotShareCap(shares.perAccount));
  if (limits.seatsPerAddress > 0) {
    const onSlot =
      (yield* row(query(db, 'heldFromAddressOnSlot'), {
        clientAddress: context.clientAddress,
        slotId,
        rows: shares.perAddress + 1,
      }))?.seats ?? 0;
    if (onSlot - replacedHere + seats > shares.perAddress) throw conflict(HOARDING_MESSAGES.addressCap);
  }

  const max = context.maxTicketsPerBuyer;
  if (max !== null) {
    const already = heldFor(kept, eventId) + (yield* boughtForSteps(db, userId, eventId));
    if (already + seats > max) throw conflict(HOARDING_MESSAGES.perBuyerMax(max, already));
  }
  return { window, activeOnSlot: replaced };
}

/**
 * The most one account, and one client address, may hold of a slot at once: its share of the slot's
 * capacity (HOARDING_DEFAULTS), rounded up, and never less than one full order of its most generous
 * ticket type, so a buyer can always hold what the organiser lets one order take.
 */
export function slotSharesOf(
  capacity: number,
  maxPerOrder: number,
): { perAccount: number; perAddress: number } {
  const share = (percent: number) => Math.max(maxPerOrder, Math.ceil((capacity * percent) / 100));
  return {
    perAccount: share(HOARDING_DEFAULTS.slotSharePerAccountPercent),
    perAddress: share(HOARDING_DEFAULTS.slotSharePerAddressPercent),
  };
}

/**
 * When the cool-down after an unpaid session ends, from the hold's own times, never from the reason
 * its release gave: the client names that reason, so "cancelled" two seconds before the end would
 * otherwise earn a fresh session two seconds later (issue 35: five sessions in a row, the seats off hold
 * for about 2 s between them). The cool-down is HOLD_COOL_DOWN_MS scaled by the share of the session
 * the seats were held, counted from when they went back: a session that ran out (still held in its
 * grace, or released at or after its end by the page's time-out or the sweeper) waits the full ten
 * minutes after its end, as before; a window closed at once waits nothing; one closed halfway waits
 * five minutes. Being continuous, it has no edge to release just before: each second the seats are held
 * costs two seconds of waiting, whenever they are given back, so one account holds a slot at most a
 * third of the time whatever it does. The session started PAYMENT_SESSION_MS before its end (a
 * replacement keeps its first hold's session, so a chain counts from the chain's start).
 */
export function coolDownEndsAt(hold: {
  status: string;
  sessionExpiresAt: string;
  endedAt: string | null;
}): number {
  const sessionEnd = Date.parse(hold.sessionExpiresAt);
  const heldUntil =
    hold.status === 'active' || hold.endedAt === null
      ? sessionEnd
      : Math.min(sessionEnd, Date.parse(hold.endedAt));
  const usedShare = Math.min(
    1,
    Math.max(0, (heldUntil - sessionEnd + PAYMENT_SESSION_MS) / PAYMENT_SESSION_MS),
  );
  return heldUntil + Math.ceil(HOLD_COOL_DOWN_MS * usedShare);
}

/**
 * The tickets an account already has for an event, as the organiser's per-buyer maximum counts them:
 * seats it holds, seats it booked, and seats it paid for and gave away. For the waiting list's join,
 * offer and Pay, since an offer is paid without a Proceed (ADR 0027).
 */
export function ticketsCountedTowardsMax(db: DbOrTx, userId: string, eventId: string): number {
  return runSync(ticketsCountedTowardsMaxSteps(db, userId, eventId));
}

/** `ticketsCountedTowardsMax` written once for both engines. */
export function* ticketsCountedTowardsMaxSteps(db: DbOrTx, userId: string, eventId: string): Steps<number> {
  const active = yield* rows(query(db, 'activeOfAccount'), { userId });
  return heldFor(active, eventId) + (yield* boughtForSteps(db, userId, eventId));
}

/**
 * What a Proceed serialises on before `checkHoardingSteps` reads its counts (PostgreSQL; SQLite's writes
 * run one at a time anyway): the account, whose holds the replacement, the account cap and the
 * per-buyer maximum count, and the client address while its caps are on. Sorted, as `serialize` asks.
 */
export function hoardingLockKeys(userId: string, context: HoardingContext | undefined): string[] {
  const keys = [`holds:account:${userId}`];
  if (context && context.limits.seatsPerAddress > 0) keys.push(`holds:address:${context.clientAddress}`);
  return keys.sort();
}

/** Seats of these active holds that are for the event. */
function heldFor(active: { eventId: string; seats: number }[], eventId: string): number {
  return sum(active.filter((h) => h.eventId === eventId).map((h) => h.seats));
}

/** Seats the account booked for the event, and those it paid for and gave away. */
function* boughtForSteps(db: DbOrTx, userId: string, eventId: string): Steps<number> {
  const booked = yield* row(query(db, 'bookedForEvent'), { userId, eventId });
  const givenAway = yield* row(query(db, 'givenAwayForEvent'), { userId, eventId });
  return (booked?.seats ?? 0) + (givenAway?.seats ?? 0);
}

function sum(values: number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

/** Whole minutes, rounded up, at least one: 'again in 0 minutes' would be a lie. */
function minutesOf(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

const p = sql.placeholder;

/** The seats of an address's active holds, at most `rows` of them (covering partial index). */
const addressHolds = (db: DbOrTx, { holds }: Tables) =>
  db
    .select({ seats: holds.seats })
    .from(holds)
    .where(and(eq(holds.clientAddress, p('clientAddress')), sql`${holds.status} = 'active'`))
    .limit(p('rows'))
    .as('from_address');

/** The seats of an address's active holds of one slot, at most `rows` of them (covering partial index). */
const addressSlotHolds = (db: DbOrTx, { holds }: Tables) =>
  db
    .select({ seats: holds.seats })
    .from(holds)
    .where(
      and(
        eq(holds.clientAddress, p('clientAddress')),
        eq(holds.slotId, p('slotId')),
        sql`${holds.status} = 'active'`,
      ),
    )
    .limit(p('rows'))
    .as('from_address_on_slot');

/** What the cool-down and the session rules read of a hold, active or ended. */
const sessionColumns = ({ holds }: Tables) => ({
  status: holds.status,
  endedAt: holds.endedAt,
  sessionExpiresAt: holds.sessionExpiresAt,
  expiresAt: holds.expiresAt,
  createdAt: holds.createdAt,
});

// The status is a literal in the active-hold queries: SQLite uses a partial index (WHERE status =
// 'active') only when the query's own text implies its condition. Tables come from the engine of `db`
// (ADR 0045), so the same queries run on PostgreSQL, whose sums are bigints (text to node-postgres):
// hence the casts to integer, a number on both engines without a decoder per row.
const query = preparedQueries({
  activeOfAccount: (db: DbOrTx) => {
    const tables = tablesOf(db);
    const { holds } = tables;
    return db
      .select({
        id: holds.id,
        slotId: holds.slotId,
        eventId: holds.eventId,
        seats: holds.seats,
        clientAddress: holds.clientAddress,
        ...sessionColumns(tables),
      })
      .from(holds)
      .where(and(eq(holds.userId, p('userId')), sql`${holds.status} = 'active'`))
      .prepare();
  },
  // Its values cast: under ORDER BY and LIMIT the planner looks at a plain `?`, and the statement is
  // prepared again on every binding (unpeeked-params.ts). Drizzle types LIMIT as a number or a
  // placeholder; both dialects embed any SQL there.
  endedOnSlot: (db: DbOrTx) => {
    const tables = tablesOf(db);
    const { holds } = tables;
    return db
      .select(sessionColumns(tables))
      .from(holds)
      .where(
        and(
          eq(holds.userId, textParam('userId')),
          eq(holds.slotId, textParam('slotId')),
          sql`${holds.status} <> 'active'`,
          gt(holds.createdAt, textParam('since')),
        ),
      )
      .orderBy(sql`${holds.createdAt} desc`)
      .limit(integerParam('rows') as unknown as number)
      .prepare();
  },
  heldFromAddress: (db: DbOrTx) => {
    const fromAddress = addressHolds(db, tablesOf(db));
    return db
      .select({ seats: sql<number>`cast(coalesce(sum(${fromAddress.seats}), 0) as integer)` })
      .from(fromAddress)
      .prepare();
  },
  heldFromAddressOnSlot: (db: DbOrTx) => {
    const fromAddressOnSlot = addressSlotHolds(db, tablesOf(db));
    return db
      .select({ seats: sql<number>`cast(coalesce(sum(${fromAddressOnSlot.seats}), 0) as integer)` })
      .from(fromAddressOnSlot)
      .prepare();
  },
  // The slot's stock for its fair shares: its types' capacity and most generous per-order maximum. All
  // its types, live or paused: a type taken off sale for a while must not shrink everyone's share
  // (nor leave a share of 0 seats, refused with the share's message instead of "Sold Out").
  slotStock: (db: DbOrTx) => {
    const { ticketTypes } = tablesOf(db);
    return db
      .select({
        capacity: sql<number>`cast(coalesce(sum(${ticketTypes.totalTickets}), 0) as integer)`,
        maxPerOrder: sql<number>`cast(coalesce(max(${ticketTypes.maxPerOrder}), 0) as integer)`,
      })
      .from(ticketTypes)
      .where(eq(ticketTypes.slotId, p('slotId')))
      .prepare();
  },
  bookedForEvent: (db: DbOrTx) => {
    const { bookings } = tablesOf(db);
    return db
      .select({ seats: sql<number>`cast(coalesce(sum(${bookings.ticketCount}), 0) as integer)` })
      .from(bookings)
      .where(
        and(
          eq(bookings.userId, p('userId')),
          eq(bookings.eventId, p('eventId')),
          eq(bookings.status, 'confirmed'),
        ),
      )
      .prepare();
  },
  // Those the buyer paid for and gave away: a transfer must not reset the organiser's per-buyer maximum
  // (buy, give away, buy again). Separate from the above so each reads through its own index.
  givenAwayForEvent: (db: DbOrTx) => {
    const { bookings } = tablesOf(db);
    return db
      .select({ seats: sql<number>`cast(coalesce(sum(${bookings.ticketCount}), 0) as integer)` })
      .from(bookings)
      .where(
        and(
          eq(bookings.paidByUserId, p('userId')),
          eq(bookings.eventId, p('eventId')),
          eq(bookings.status, 'confirmed'),
          sql`${bookings.paidByUserId} is not null`,
          sql`${bookings.userId} <> ${p('userId')}`,
        ),
      )
      .prepare();
  },
});
