import { and, eq } from 'drizzle-orm';
import { indiaCalendarDay } from '../../../shared/dates.ts';
import { EDITOR_MESSAGES, slotEndsNextDay } from '../../../shared/event-editor-schemas.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { slots } from '../../db/schema/catalog.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, conflict } from '../../errors.ts';
import { slotMovedMail } from '../bookings/booking-change-mails.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { siteUrl } from '../payments/confirm.ts';
import { indiaInstant, nextDay, refreshEventTimes } from './event-times.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEvent } from './find-in-event.ts';
import { refuseTakenStart } from './refuse-taken-start.ts';

/**
 * Moves a slot to new start and end times on its date (India time). The slot's confirmed bookings carry
 * the new times (their tickets and calendar files show them) and every holder is mailed the old and the
 * new time, in the same transaction as the move. A cancelled slot cannot be moved, nor one into the past
 * or onto another live slot's start.
 */
export async function updateSlotTime(
  deps: Pick<AppDeps, 'db' | 'clock' | 'env'>,
  eventId: string,
  basedOn: number,
  input: { slotId: string; startTime: string; endTime: string },
): Promise<{ version: number; holdersMailed: number }> {
  return editEvent(deps.db, eventId, basedOn, (tx, version) => {
    const slot = findSlotInEvent(tx, eventId, input.slotId);
    if (slot.cancelledAt) throw conflict(EDITOR_MESSAGES.slotCancelled);
    const day = indiaCalendarDay(slot.dateOfEvent);
    const startTime = indiaInstant(day, input.startTime);
    const endTime = indiaInstant(slotEndsNextDay(input) ? nextDay(day) : day, input.endTime);
    const now = deps.clock.now();
    if (Date.parse(startTime) <= now.getTime()) {
      throw badRequest(EDITOR_MESSAGES.slotPast, { startTime: EDITOR_MESSAGES.slotPast });
    }
    if (startTime === slot.startTime && endTime === slot.endTime) return { version, holdersMailed: 0 };
    refuseTakenStart(tx, eventId, startTime, slot.id);

    tx.update(slots).set({ startTime, endTime }).where(eq(slots.id, input.slotId)).run();
    refreshEventTimes(tx, eventId);
    const moved = tx
      .update(bookings)
      .set({ ticketSlot: startTime, ticketSlotEnd: endTime })
      .where(and(eq(bookings.slotId, input.slotId), eq(bookings.status, 'confirmed')))
      .returning({
        id: bookings.id,
        userName: bookings.userName,
        userEmail: bookings.userEmail,
        eventName: bookings.eventName,
      })
      .all();
    for (const booking of moved) {
      enqueueMail(
        tx,
        slotMovedMail({
          bookingId: booking.id,
          userName: booking.userName,
          userEmail: booking.userEmail,
          eventName: booking.eventName,
          oldStart: slot.startTime,
          oldEnd: slot.endTime,
          newStart: startTime,
          newEnd: endTime,
          ticketUrl: `${siteUrl(deps)}/ticket/${encodeURIComponent(booking.id)}`,
          supportEmail: deps.env.SUPPORT_EMAIL,
        }),
        now,
      );
    }
    return { version, holdersMailed: moved.length };
  });
}
