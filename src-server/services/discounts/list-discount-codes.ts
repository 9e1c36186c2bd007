import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DiscountKind } from '../../../shared/discount-schemas.ts';
import type { Db } from '../../db/client.ts';
import { discountCodes } from '../../db/schema/discounts.ts';
import { holds } from '../../db/schema/payments.ts';
import { DISCOUNT_CODE_TERMS } from './discount-code-fields.ts';

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
 * paid holds whose use was not given back (a cancelled booking's was), by one definition.
 */
export function listDiscountCodes(db: Db, eventId: string): DiscountCodeRow[] {
  const given = db
    .select({
      discountCodeId: discountCodes.id,
      bookings: sql<number>`count(*)`,
      discountPaise: sql<number>`coalesce(sum(${holds.discountPaise}), 0)`,
    })
    // From the event's codes (their index) to the holds priced with each (holds_discount_code_user_idx):
    // never a scan of all holds of a status.
    .from(discountCodes)
    .innerJoin(holds, eq(holds.discountCodeId, discountCodes.id))
    .where(
      and(
        eq(discountCodes.eventId, eventId),
        isNull(holds.discountReturnedAt),
        // Unary plus: SQLite must not pick holds_status_expiry_idx and walk every converted hold.
        sql`+${holds.status} = 'converted'`,
      ),
    )
    .groupBy(discountCodes.id)
    .all();
  const byCode = new Map(given.map((g) => [g.discountCodeId, g]));
  return db
    .select(DISCOUNT_CODE_TERMS)
    .from(discountCodes)
    .where(eq(discountCodes.eventId, eventId))
    .orderBy(asc(discountCodes.createdAt), asc(discountCodes.id))
    .all()
    .map((row) => ({
      ...row,
      bookings: byCode.get(row.id)?.bookings ?? 0,
      discountPaise: byCode.get(row.id)?.discountPaise ?? 0,
    }));
}
