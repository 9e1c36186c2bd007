import { eq } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { conflict } from '../../errors.ts';
import { refreshEventTimesSteps } from './event-times.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEventSteps } from './find-in-event.ts';
import { hasBookingsSteps } from './sold-or-held.ts';

/** Deletes a slot with its ticket types, unless anything in it was ever booked or held. */
export async function removeSlot(
  db: Db,
  eventId: string,
  basedOn: number,
  slotId: string,
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { slots } = tablesOf(tx);
    yield* findSlotInEventSteps(tx, eventId, slotId);
    if (yield* hasBookingsSteps(tx, { slotId })) throw conflict(EDITOR_MESSAGES.hasBookings('slot'));
    yield* changes(tx.delete(slots).where(eq(slots.id, slotId)));
    yield* refreshEventTimesSteps(tx, eventId);
    return { version };
  });
}
