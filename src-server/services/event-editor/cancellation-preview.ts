import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { slotIdsOf } from './cancel-event.ts';
import { confirmedBookingsOf } from './cancel-slots.ts';

/**
 * What the cancel dialogs name before the organiser confirms: how many confirmed bookings (and how much
 * money) cancelling the slot, or the whole event without a slot id, would refund.
 */
export function cancellationPreview(
  db: Db,
  eventId: string,
  slotId?: string,
): { bookings: number; amountPaise: number } {
  const slotIds = slotIdsOf(db, eventId);
  if (slotId && !slotIds.includes(slotId)) throw notFound(EDITOR_MESSAGES.slotNotFound);
  return confirmedBookingsOf(db, slotId ? [slotId] : slotIds);
}
