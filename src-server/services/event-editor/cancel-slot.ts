import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { EventRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../deps.ts';
import { conflict } from '../../errors.ts';
import { slotCancellationPermission } from '../team/event-permissions.ts';
import { requireEventRole } from '../team/require-event-permission.ts';
import { cancelSlotsInSteps, confirmedBookingsOfSteps } from './cancel-slots.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEventSteps } from './find-in-event.ts';

/**
 * Cancels one slot: nothing more is sold, open holds are released, and every confirmed booking will be
 * cancelled and refunded (the caller starts that work; the cancellation job finishes it). Answers how
 * many bookings are being refunded. A slot with bookings needs `cancelBookedSlot` (the owner's and
 * admins'), a slot nobody booked `edit`: `role` is the caller's role on the event.
 */
export async function cancelSlot(
  db: Db,
  clock: Clock,
  eventId: string,
  basedOn: number,
  slotId: string,
  role: EventRole,
): Promise<{ version: number; bookingsToRefund: number }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const slot = yield* findSlotInEventSteps(tx, eventId, slotId);
    if (slot.cancelledAt) throw conflict(EDITOR_MESSAGES.slotCancelled);
    const { bookings } = yield* confirmedBookingsOfSteps(tx, [slotId]);
    requireEventRole(role, slotCancellationPermission(bookings), EDITOR_MESSAGES.bookedSlotOwnersCall);
    yield* cancelSlotsInSteps(tx, [slotId], clock.now());
    return { version, bookingsToRefund: bookings };
  });
}
