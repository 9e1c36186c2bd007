import { sql } from 'drizzle-orm';
import { ADMIN_PAGE_SIZE, type AdminPage } from '../../../shared/admin-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { readSnapshot, sqlRows } from '../../db/engine/reads.ts';
import type { Steps } from '../../db/engine/steps.ts';

export interface OrganiserRow {
  userId: string;
  name: string | null;
  email: string;
  /** Events the organiser owns, drafts and cancelled ones included. */
  eventsCount: number;
  /** When the organiser right was granted (or last changed). */
  since: string;
}

/**
 * The admin page's organisers, newest first, one page at a time: the page and the total are two
 * queries over the `account_roles (role, granted_at)` index, the events count a subquery per row.
 */
export function listOrganisers(db: DbOrTx, page: number): Promise<AdminPage<OrganiserRow>> {
  return readSnapshot(db, (db) => listOrganisersSteps(db, page));
}

function* listOrganisersSteps(db: DbOrTx, page: number): Steps<AdminPage<OrganiserRow>> {
  const rows = yield* sqlRows<{
    user_id: string;
    name: string | null;
    email: string;
    events: number;
    since: string;
  }>(
    db,
    sql`
    select r.user_id, u.name, u.email, r.granted_at as since,
      (select count(*) from events e where e.owner_id = r.user_id) as events
    from account_roles r join users u on u.id = r.user_id
    where r.role = 'organiser'
    order by r.granted_at desc, r.user_id
    limit ${ADMIN_PAGE_SIZE} offset ${(page - 1) * ADMIN_PAGE_SIZE}
  `,
  );
  const [counted] = yield* sqlRows<{ n: number }>(
    db,
    sql`select count(*) as n from account_roles where role = 'organiser'`,
  );
  // PostgreSQL answers a count as text.
  const total = Number(counted!.n);
  return {
    items: rows.map((r) => ({
      userId: r.user_id,
      name: r.name,
      email: r.email,
      eventsCount: Number(r.events),
      since: r.since,
    })),
    page,
    pageSize: ADMIN_PAGE_SIZE,
    total,
  };
}
