import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { notFound } from '../../errors.ts';
import { slotIdsOfSteps } from './cancel-event.ts';
import { confirmedBookingsOfSteps } from './cancel-slots.ts';

/**
 * What the cancel dialogs name before the organiser confirms: how many confirmed bookings (and how much
 * money) cancelling the slot, or the whole event without a slot id, would refund.
 */
export function cancellationPreview(
  db: Db,
  eventId: string,
  slotId?: string,
): Promise<{ bookings: number; amountPaise: number }> {
  return runStatements(db, function* (db) {
    const slotIds = yield* slotIdsOfSteps(db, eventId);
    if (slotId && !slotIds.includes(slotId)) throw notFound(EDITOR_MESSAGES.slotNotFound);
    return yield* confirmedBookingsOfSteps(db, slotId ? [slotId] : slotIds);
  });
}
