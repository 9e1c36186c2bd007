import { sql } from 'drizzle-orm';
import { ADMIN_PAGE_SIZE, type AdminPage } from '../../../shared/admin-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { numeric, readSnapshot, sqlRows } from '../../db/engine/reads.ts';
import type { Steps } from '../../db/engine/steps.ts';
import {
  type ConsoleEventStatus,
  consoleStatus,
  EVENT_FIGURE_NUMBERS,
  type EventFigureRow,
  eventFigureColumns,
} from '../console/event-figures.ts';
import { eventMoneySteps } from '../sales/event-money.ts';

export interface PlatformEvent {
  id: string;
  name: string;
  city: string;
  status: ConsoleEventStatus;
  /** What the unpublish button sends back, so it acts on the event the admin saw. */
  version: number;
  /** An admin took it off sale; only an admin releases it (issue 35). */
  onHold: boolean;
  ownerName: string | null;
  ownerEmail: string | null;
  /** The event's first start (its date as the storefront shows it) and the next slot still to come. */
  startTime: string;
  nextStart: string | null;
  sold: number;
  capacity: number;
  /** The Sales page's figures (services/sales/event-money.ts). */
  ticketRevenuePaise: number;
  payablePaise: number;
}

/**
 * Every organiser's events for the admin page, newest first, one page at a time, with the same figures
 * as the console home computed in the one query; the page, its total and its money in one snapshot.
 */
export function listAllEvents(db: DbOrTx, page: number, now: Date): Promise<AdminPage<PlatformEvent>> {
  return readSnapshot(db, (db) => listAllEventsSteps(db, page, now));
}

function* listAllEventsSteps(db: DbOrTx, page: number, now: Date): Steps<AdminPage<PlatformEvent>> {
  const found = yield* sqlRows<
    EventFigureRow & {
      id: string;
      name: string;
      city: string;
      version: number;
      admin_hold_at: string | null;
      start_time: string;
      owner_name: string | null;
      owner_email: string | null;
    }
  >(
    db,
    sql`
    select e.id, e.name, e.city, e.version, e.admin_hold_at, e.start_time, u.name as owner_name, u.email as owner_email,
      ${eventFigureColumns(now)}
    from events e left join users u on u.id = e.owner_id
    order by e.created_at desc, e.id
    limit ${ADMIN_PAGE_SIZE} offset ${(page - 1) * ADMIN_PAGE_SIZE}
  `,
  );
  const rows = found.map((r) => numeric(r, [...EVENT_FIGURE_NUMBERS, 'version']));
  const [counted] = yield* sqlRows<{ n: number }>(db, sql`select count(*) as n from events`);
  const total = Number(counted!.n);
  const money = yield* eventMoneySteps(
    db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      city: r.city,
      status: consoleStatus(r),
      version: r.version,
      onHold: r.admin_hold_at !== null,
      ownerName: r.owner_name,
      ownerEmail: r.owner_email,
      startTime: r.start_time,
      nextStart: r.next_start,
      sold: r.sold,
      capacity: r.capacity,
      ticketRevenuePaise: money.get(r.id)!.ticketRevenuePaise,
      payablePaise: money.get(r.id)!.payablePaise,
    })),
    page,
    pageSize: ADMIN_PAGE_SIZE,
    total,
  };
}
