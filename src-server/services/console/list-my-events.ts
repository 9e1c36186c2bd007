import { sql } from 'drizzle-orm';
import type { TeamRole } from '../../../shared/organiser-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { numeric, readSnapshot, sqlRows } from '../../db/engine/reads.ts';
import type { Steps } from '../../db/engine/steps.ts';
import { eventMoneySteps } from '../sales/event-money.ts';
import { eventRoleMay } from '../team/event-permissions.ts';
import {
  type ConsoleEventStatus,
  consoleStatus,
  EVENT_FIGURE_NUMBERS,
  type EventFigureRow,
  eventFigureColumns,
} from './event-figures.ts';

export interface MyEvent {
  id: string;
  name: string;
  city: string;
  myRole: 'owner' | TeamRole;
  status: ConsoleEventStatus;
  /** Start of the next slot still to come, or null. */
  nextStart: string | null;
  sold: number;
  capacity: number;
  /**
   * Ticket revenue (GST in it included, platform fees not) and what is payable to the organiser after
   * refunds: the Sales page's figures (services/sales/event-money.ts). Null for gate staff: the takings
   * are the organisers' business (issue 35), not the gate's.
   */
  ticketRevenuePaise: number | null;
  payablePaise: number | null;
}

/**
 * The console home: the events the caller owns or is on the team of, with their figures computed by
 * the database in one query (correlated subqueries, portable SQL), soonest first, past events last;
 * the rows and their money in one snapshot on either engine.
 */
export function listMyEvents(db: DbOrTx, userId: string, now: Date): Promise<MyEvent[]> {
  return readSnapshot(db, (db) => listMyEventsSteps(db, userId, now));
}

function* listMyEventsSteps(db: DbOrTx, userId: string, now: Date): Steps<MyEvent[]> {
  const found = yield* sqlRows<
    EventFigureRow & { id: string; name: string; city: string; my_role: 'owner' | TeamRole }
  >(
    db,
    sql`
    select e.id, e.name, e.city,
      case when e.owner_id = ${userId} then 'owner'
           else (select m.role from event_team_members m where m.event_id = e.id and m.user_id = ${userId})
      end as my_role,
      ${eventFigureColumns(now)}
    from events e
    where e.owner_id = ${userId}
       or exists (select 1 from event_team_members m where m.event_id = e.id and m.user_id = ${userId})
    order by next_start nulls last, e.name
  `,
  );
  const rows = found.map((r) => numeric(r, EVENT_FIGURE_NUMBERS));
  const money = yield* eventMoneySteps(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    city: r.city,
    myRole: r.my_role,
    status: consoleStatus(r),
    nextStart: r.next_start,
    sold: r.sold,
    capacity: r.capacity,
    // Only roles that see the Sales page see the takings (not gate staff, not the box office).
    ticketRevenuePaise: eventRoleMay(r.my_role, 'viewSales') ? money.get(r.id)!.ticketRevenuePaise : null,
    payablePaise: eventRoleMay(r.my_role, 'viewSales') ? money.get(r.id)!.payablePaise : null,
  }));
}
