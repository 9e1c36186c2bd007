import { and, eq } from 'drizzle-orm';
import type { QuoteDiscountInput } from '../../../shared/discount-schemas.ts';
import { checkoutPriceBreakdown, type PriceBreakdown } from '../../../shared/pricing.ts';
import { events } from '../../db/schema/catalog.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { refuseLockedTypes } from '../access-codes/hidden-types.ts';
import { evaluateDiscount } from '../discounts/discount-uses.ts';
import { quoteSeats } from '../inventory/holds.ts';
import { checkoutTaxesOf } from './checkout-taxes.ts';

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
export function quoteDiscount(deps: AppDeps, userId: string, input: QuoteDiscountInput): DiscountQuote {
  const { db } = deps;
  const event = db
    .select({ id: events.id, platformFeeRate: events.platformFeeRate })
    .from(events)
    .where(and(eq(events.id, input.eventId), eq(events.status, 'published')))
    .get();
  if (!event) throw notFound('Event not found');
  refuseLockedTypes(
    db,
    { eventId: event.id, code: input.discountCode, lines: input.selectedTickets },
    deps.clock.now(),
  );
  const quoted = quoteSeats(db, { userId, slotId: input.selectedSlot, lines: input.selectedTickets });
  const discount = evaluateDiscount(
    db,
    { eventId: event.id, slotId: input.selectedSlot, userId, code: input.discountCode, lines: quoted },
    deps.clock.now(),
  );
  const lines = quoted.map((line) => ({
    ...line,
    discountPerTicketPaise: discount.perTicket.get(line.ticketTypeId) ?? 0,
  }));
  return {
    code: discount.code,
    discountPaise: discount.discountPaise,
    lines: lines.map((l) => ({
      ticketTypeId: l.ticketTypeId,
      name: l.name,
      quantity: l.quantity,
      discountPerTicketPaise: l.discountPerTicketPaise,
    })),
    price: checkoutPriceBreakdown(lines, event.platformFeeRate, checkoutTaxesOf(db, deps.env, event.id)),
  };
}
