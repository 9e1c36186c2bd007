import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DiscountKind } from '../../../shared/discount-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { bytewise, isPostgres, readSnapshot } from '../../db/engine/reads.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { type Tables, tablesOf } from '../../db/engine/tables.ts';
import { discountCodeTermsOf } from './discount-code-fields.ts';

export interface DiscountCodeRow {
  id: string;
  code: string;
  kind: DiscountKind;
  percentOff: number | null;
  amountOffPaise: number | null;
  ticketTypeIds: string[] | null;
  validFrom: string | null;
  validUntil: string | null;
  maxUses: number | null;
  maxUsesPerBuyer: number | null;
  /** Hidden ticket types it shows and sells (an access code); null: none. */
  unlocksTicketTypeIds: string[] | null;
  isActive: boolean;
  /** Unpaid holds and bookings carrying it now. */
  uses: number;
  /** Bookings (not cancelled) priced with it. */
  bookings: number;
  /** What it took off those bookings' tickets, before tax: the revenue given away. */
  discountPaise: number;
}

/**
 * An event's codes for the console and the sales dashboard, with uses and the revenue given away:
 * paid holds whose use was not given back (a cancelled booking's was), by one definition. One snapshot
 * on either engine, so a code's uses and its bookings are counted at the same moment.
 */
export function listDiscountCodes(db: DbOrTx, eventId: string): Promise<DiscountCodeRow[]> {
  return readSnapshot(db, (db) => listDiscountCodesSteps(db, eventId));
}

function* listDiscountCodesSteps(db: DbOrTx, eventId: string): Steps<DiscountCodeRow[]> {
  const { discountCodes, holds } = tablesOf(db);
  const given = yield* rows(
    db
      .select({
        discountCodeId: discountCodes.id,
        // PostgreSQL answers a count and a sum of bigints as text.
        bookings: sql<number>`count(*)`.mapWith(Number),
        discountPaise: sql<number>`coalesce(sum(${holds.discountPaise}), 0)`.mapWith(Number),
      })
      // From the event's codes (their index) to the holds priced with each (holds_discount_code_user_idx):
      // never a scan of all holds of a status.
      .from(discountCodes)
      .innerJoin(holds, eq(holds.discountCodeId, discountCodes.id))
      .where(
        and(eq(discountCodes.eventId, eventId), isNull(holds.discountReturnedAt), convertedOn(db, holds)),
      )
      .groupBy(discountCodes.id),
  );
  const byCode = new Map(given.map((g) => [g.discountCodeId, g]));
  const codes = yield* rows(
    db
      .select(discountCodeTermsOf(discountCodes))
      .from(discountCodes)
      .where(eq(discountCodes.eventId, eventId))
      .orderBy(asc(bytewise(db, discountCodes.createdAt)), asc(bytewise(db, discountCodes.id))),
  );
  return codes.map((row) => ({
    ...row,
    bookings: byCode.get(row.id)?.bookings ?? 0,
    discountPaise: byCode.get(row.id)?.discountPaise ?? 0,
  }));
}

/**
 * The hold was paid. On SQLite the unary plus keeps the planner off holds_status_expiry_idx, which it
 * would otherwise walk over every converted hold; PostgreSQL has no unary plus for text and needs no
 * such hint, its planner weighing the status's statistics (most holds are converted) against the
 * code's index.
 */
function convertedOn(db: DbOrTx, holds: Tables['holds']) {
  return isPostgres(db) ? sql`${holds.status} = 'converted'` : sql`+${holds.status} = 'converted'`;
}
