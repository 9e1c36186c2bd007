import { and, eq } from 'drizzle-orm';
import type { QuoteDiscountInput } from '../../../shared/discount-schemas.ts';
import { checkoutPriceBreakdown, type PriceBreakdown } from '../../../shared/pricing.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { refuseLockedTypesSteps } from '../access-codes/hidden-types.ts';
import { evaluateDiscountSteps } from '../discounts/discount-uses.ts';
import { quoteSeatsSteps } from '../inventory/holds.ts';
import { checkoutTaxesSteps } from './checkout-taxes.ts';

export interface DiscountQuote {
  /** As the organiser wrote it (the buyer may have typed it in another case). */
  code: string;
  discountPaise: number;
  lines: { ticketTypeId: string; name: string; quantity: number; discountPerTicketPaise: number }[];
  price: PriceBreakdown;
}

/**
 * The checkout's "Apply code": the buyer's selection priced with the code, exactly as Proceed will
 * charge it (the client only shows this), or the code's refusal (shared/discount-schemas.ts). Takes no
 * use: Proceed checks again and takes one under its write lock.
 */
export function quoteDiscount(
  deps: AppDeps,
  userId: string,
  input: QuoteDiscountInput,
): Promise<DiscountQuote> {
  // The same statements as before on SQLite, each on its own; awaited one by one on PostgreSQL.
  return runStatements(deps.db, function* (db) {
    const { events } = tablesOf(db);
    const event = yield* row(
      db
        .select({ id: events.id, platformFeeRate: events.platformFeeRate })
        .from(events)
        .where(and(eq(events.id, input.eventId), eq(events.status, 'published'))),
    );
    if (!event) throw notFound('Event not found');
    yield* refuseLockedTypesSteps(
      db,
      { eventId: event.id, code: input.discountCode, lines: input.selectedTickets },
      deps.clock.now(),
    );
    const quoted = yield* quoteSeatsSteps(db, {
      userId,
      slotId: input.selectedSlot,
      lines: input.selectedTickets,
    });
    const discount = yield* evaluateDiscountSteps(
      db,
      { eventId: event.id, slotId: input.selectedSlot, userId, code: input.discountCode, lines: quoted },
      deps.clock.now(),
    );
    const lines = quoted.map((line) => ({
      ...line,
      discountPerTicketPaise: discount.perTicket.get(line.ticketTypeId) ?? 0,
    }));
    const taxes = yield* checkoutTaxesSteps(db, deps.env, event.id);
    return {
      code: discount.code,
      discountPaise: discount.discountPaise,
      lines: lines.map((l) => ({
        ticketTypeId: l.ticketTypeId,
        name: l.name,
        quantity: l.quantity,
        discountPerTicketPaise: l.discountPerTicketPaise,
      })),
      price: checkoutPriceBreakdown(lines, event.platformFeeRate, taxes),
    };
  });
}
