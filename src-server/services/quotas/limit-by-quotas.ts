import type { DbOrTx } from '../../db/client.ts';
import type { Steps } from '../../db/engine/steps.ts';
import type { EventDateDetail } from '../catalog/ticket-tree.ts';
import { quotaLeftOfTypesSteps } from './quota-seats.ts';

/**
 * What a buyer sees (the event page, the ticket selection): each type's available seats, never more
 * than its quotas have left (ADR 0039), so a type whose shared capacity is gone shows "Sold Out" though
 * its own count has seats. One query for the whole event, on either engine. The editor reads the raw tree: its sold
 * figure is total − available − held of the type itself.
 */
export function* limitByQuotasSteps(db: DbOrTx, tree: EventDateDetail[]): Steps<EventDateDetail[]> {
  const typeIds = tree.flatMap((d) => d.slots.flatMap((s) => s.tickets.map((t) => t.id)));
  const left = yield* quotaLeftOfTypesSteps(db, typeIds);
  if (left.size === 0) return tree;
  return tree.map((date) => ({
    ...date,
    slots: date.slots.map((slot) => ({
      ...slot,
      tickets: slot.tickets.map((type) => {
        const quotaLeft = left.get(type.id);
        return quotaLeft === undefined
          ? type
          : { ...type, availableTickets: Math.max(0, Math.min(type.availableTickets, quotaLeft)) };
      }),
    })),
  }));
}
