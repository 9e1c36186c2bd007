import { and, eq, isNull, ne } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict } from '../../errors.ts';

/**
 * Refuses a slot start another live slot of the event already has (issue 35): each slot is the whole
 * house, so a twin would sell the hall twice and show buyers two identical times. A cancelled slot sells
 * nothing and does not count; `exceptSlotId` is the slot being moved. Checked inside the edit's write
 * transaction, so two edits cannot both take the same start.
 */
export function* refuseTakenStartSteps(
  tx: WriteTx,
  eventId: string,
  startTime: string,
  exceptSlotId?: string,
): Steps<void> {
  const { eventDates, slots } = tablesOf(tx);
  const twin = yield* row(
    tx
      .select({ id: slots.id })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(
        and(
          eq(eventDates.eventId, eventId),
          eq(slots.startTime, startTime),
          isNull(slots.cancelledAt),
          exceptSlotId ? ne(slots.id, exceptSlotId) : undefined,
        ),
      ),
  );
  if (twin) throw conflict(EDITOR_MESSAGES.slotStartTaken, { startTime: EDITOR_MESSAGES.slotStartTaken });
}
