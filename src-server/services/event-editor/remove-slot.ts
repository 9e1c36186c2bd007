import { eq } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { slots } from '../../db/schema/catalog.ts';
import { conflict } from '../../errors.ts';
import { refreshEventTimes } from './event-times.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEvent } from './find-in-event.ts';
import { hasBookings } from './sold-or-held.ts';

/** Deletes a slot with its ticket types, unless anything in it was ever booked or held. */
export async function removeSlot(
  db: Db,
  eventId: string,
  basedOn: number,
  slotId: string,
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, (tx, version) => {
    findSlotInEvent(tx, eventId, slotId);
    if (hasBookings(tx, { slotId })) throw conflict(EDITOR_MESSAGES.hasBookings('slot'));
    tx.delete(slots).where(eq(slots.id, slotId)).run();
    refreshEventTimes(tx, eventId);
    return { version };
  });
}
