import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../deps.ts';
import { conflict } from '../../errors.ts';
import { cancelSlotsIn, confirmedBookingsOf } from './cancel-slots.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEvent } from './find-in-event.ts';

/**
 * Cancels one slot: nothing more is sold, open holds are released, and every confirmed booking will be
 * cancelled and refunded (the caller starts that work; the cancellation job finishes it). Answers how
 * many bookings are being refunded.
 */
export async function cancelSlot(
  db: Db,
  clock: Clock,
  eventId: string,
  basedOn: number,
  slotId: string,
): Promise<{ version: number; bookingsToRefund: number }> {
  return editEvent(db, eventId, basedOn, (tx, version) => {
    if (findSlotInEvent(tx, eventId, slotId).cancelledAt) throw conflict(EDITOR_MESSAGES.slotCancelled);
    const { bookings } = confirmedBookingsOf(tx, [slotId]);
    cancelSlotsIn(tx, [slotId], clock.now());
    return { version, bookingsToRefund: bookings };
  });
}
