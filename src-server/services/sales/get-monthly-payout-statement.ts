import { sql } from 'drizzle-orm';
import { formatInIndia } from '../../../shared/dates.ts';
import type { EventRole } from '../../../shared/organiser-schemas.ts';
import { MONTHLY_PAYOUT_PAGE_SIZE, PAYOUT_MESSAGES } from '../../../shared/sales-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { readSnapshot, sqlRows } from '../../db/engine/reads.ts';
import type { Steps } from '../../db/engine/steps.ts';
import { badRequest } from '../../errors.ts';
import { indiaMonthBounds } from '../invoices/stream-invoices-csv.ts';
import { eventRoleMay } from '../team/event-permissions.ts';
import { eventMoneySteps, NO_MONEY } from './event-money.ts';
import {
  creditNotesSteps,
  eventsActiveInSteps,
  type PayoutMonth,
  payoutMonthOf,
} from './get-payout-statement.ts';

/** One event's row of the organiser's month: exactly that event's payout statement for the month. */
export interface MonthlyPayoutEvent extends PayoutMonth {
  eventId: string;
  eventName: string;
}

export interface MonthlyPayoutStatement {
  /** 'yyyy-MM', India time. */
  month: string;
  /** This page's events, by name: each with a sale or a refund in the month. */
  events: MonthlyPayoutEvent[];
  /** Every event of the month added up, not only this page's. */
  total: PayoutMonth;
  eventCount: number;
  page: number;
  pageCount: number;
}

/**
 * The organiser's payout statement of one calendar month in India time (issue 40): a row per event of
 * theirs with activity in the month, and their total. A row is the event's own statement for the month
 * (get-payout-statement.ts: event-money.ts's figures over the month, and its credit notes), computed by
 * the same steps for all the events at once, and the total adds the rows up, so the month always equals
 * the sum of its events' statements. The caller's events are those whose payouts their role on the
 * event lets them see (viewPayouts: the owner's; no team role), so another organiser's event is never
 * in it. A month still to come is refused: it has no statement yet.
 */
export function getMonthlyPayoutStatement(
  db: DbOrTx,
  request: { userId: string; month: string; page: number },
  now: Date,
): Promise<MonthlyPayoutStatement> {
  refuseFutureMonth(request.month, now);
  return readSnapshot(db, function* (db) {
    const { events, total } = yield* monthlyPayoutSteps(db, request.userId, request.month);
    const pageCount = Math.max(1, Math.ceil(events.length / MONTHLY_PAYOUT_PAGE_SIZE));
    const start = (request.page - 1) * MONTHLY_PAYOUT_PAGE_SIZE;
    return {
      month: request.month,
      events: events.slice(start, start + MONTHLY_PAYOUT_PAGE_SIZE),
      total,
      eventCount: events.length,
      page: request.page,
      pageCount,
    };
  });
}

/** Every event's row of the month and the total, in one snapshot: the CSV's rows (stream-monthly-payout-csv.ts). */
export function monthlyPayoutRows(
  db: DbOrTx,
  userId: string,
  month: string,
  now: Date,
): Promise<{ events: MonthlyPayoutEvent[]; total: PayoutMonth }> {
  refuseFutureMonth(month, now);
  return readSnapshot(db, (db) => monthlyPayoutSteps(db, userId, month));
}

function refuseFutureMonth(month: string, now: Date): void {
  // 'yyyy-MM' strings compare as the months do.
  if (month > formatInIndia(now, 'yyyy-MM')) {
    throw badRequest(PAYOUT_MESSAGES.futureMonth, { month: PAYOUT_MESSAGES.futureMonth });
  }
}

function* monthlyPayoutSteps(
  db: DbOrTx,
  userId: string,
  month: string,
): Steps<{ events: MonthlyPayoutEvent[]; total: PayoutMonth }> {
  const period = indiaMonthBounds(month);
  const mine = yield* eventsWithPayoutsOf(db, userId);
  const active = yield* eventsActiveInSteps(
    db,
    mine.map((e) => e.id),
    period,
  );
  const listed = mine.filter((e) => active.has(e.id));
  const ids = listed.map((e) => e.id);
  const money = yield* eventMoneySteps(db, ids, period);
  const credit = yield* creditNotesSteps(db, ids, period);
  const events = listed.map((e) => ({
    eventId: e.id,
    eventName: e.name,
    ...payoutMonthOf(month, money.get(e.id)!, credit.get(e.id)!),
  }));
  return { events, total: addedUp(month, events) };
}

/** The events whose payout statement the caller may see, by their role on each (the per-event rule). */
function* eventsWithPayoutsOf(db: DbOrTx, userId: string): Steps<{ id: string; name: string }[]> {
  const found = yield* sqlRows<{ id: string; name: string; my_role: EventRole | null }>(
    db,
    sql`
      select e.id, e.name, case when e.owner_id = ${userId} then 'owner' else m.role end as my_role
      from events e
      left join event_team_members m on m.event_id = e.id and m.user_id = ${userId}
      where e.owner_id = ${userId} or m.user_id is not null
    `,
  );
  // Sorted here, not in SQL: the engines' collations differ, the statement's order must not.
  return found
    .filter((r) => r.my_role && eventRoleMay(r.my_role, 'viewPayouts'))
    .sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1));
}

/** The rows added up figure by figure: a sum of statements, never a formula of its own. */
function addedUp(month: string, rows: readonly PayoutMonth[]): PayoutMonth {
  const total = payoutMonthOf(month, NO_MONEY, { count: 0, paise: 0 });
  const figures = Object.keys(total).filter((key) => key !== 'month') as Exclude<
    keyof PayoutMonth,
    'month'
  >[];
  for (const row of rows) for (const key of figures) total[key] += row[key];
  return total;
}
