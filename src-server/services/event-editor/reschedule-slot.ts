import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { indiaCalendarDay } from '../../../shared/dates.ts';
import { EDITOR_MESSAGES, slotEndsNextDay } from '../../../shared/event-editor-schemas.ts';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, conflict } from '../../errors.ts';
import { slotMovedMail } from '../bookings/booking-change-mails.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { siteUrl } from '../mail/site-url.ts';
import { indiaInstant, nextDay, refreshEventTimesSteps } from './event-times.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEventSteps } from './find-in-event.ts';
import { refuseTakenStartSteps } from './refuse-taken-start.ts';

/**
 * Moves a slot to a new start and end (India time), on its own date or, with `day`, on another one: an
 * existing date of the event, else a new date made for it (the old date goes when no slot is left on it).
 * Bookings stay on the same slot, so every ticket and QR code stays valid; the confirmed ones carry the new
 * times and the start they had ("Moved from …"), and every holder is mailed old and new through the
 * outbox, all in the move's transaction. When the day changes, every holder (non-refundable tickets too)
 * may cancel for a full refund until the new start (buyer-cancellation.ts). Refused: a cancelled slot, a
 * new start not in the future, and a start another live slot of the event already has.
 */
export async function rescheduleSlot(
  deps: Pick<AppDeps, 'db' | 'clock' | 'env'>,
  eventId: string,
  basedOn: number,
  input: { slotId: string; day?: string | undefined; startTime: string; endTime: string },
  /** The team member who moved it, for each booking's history. */
  actorUserId: string | null = null,
): Promise<{ version: number; holdersMailed: number; dateMoved: boolean }> {
  return editEvent(deps.db, eventId, basedOn, function* (tx, version) {
    const { bookings, eventDates, holds, slots } = tablesOf(tx);
    const slot = yield* findSlotInEventSteps(tx, eventId, input.slotId);
    if (slot.cancelledAt) throw conflict(EDITOR_MESSAGES.slotCancelled);
    const fromDay = indiaCalendarDay(slot.dateOfEvent);
    const day = input.day ?? fromDay;
    if (!isCalendarDay(day))
      throw badRequest(EDITOR_MESSAGES.dayInvalid, { day: EDITOR_MESSAGES.dayInvalid });
    const startTime = indiaInstant(day, input.startTime);
    const endTime = indiaInstant(slotEndsNextDay(input) ? nextDay(day) : day, input.endTime);
    const now = deps.clock.now();
    if (Date.parse(startTime) <= now.getTime()) {
      throw badRequest(EDITOR_MESSAGES.slotMoveToPast, { startTime: EDITOR_MESSAGES.slotMoveToPast });
    }
    if (startTime === slot.startTime && endTime === slot.endTime)
      return { version, holdersMailed: 0, dateMoved: false };
    yield* refuseTakenStartSteps(tx, eventId, startTime, slot.id);

    const dateMoved = day !== fromDay;
    const date = dateMoved
      ? yield* dateOnDaySteps(tx, eventId, day)
      : { id: slot.eventDateId, dateOfEvent: slot.dateOfEvent };
    yield* changes(
      tx.update(slots).set({ startTime, endTime, eventDateId: date.id }).where(eq(slots.id, slot.id)),
    );
    if (dateMoved) {
      // A payment still in flight confirms onto the hold's date (payments/confirm.ts): the slot's new one.
      yield* changes(tx.update(holds).set({ eventDateId: date.id }).where(eq(holds.slotId, slot.id)));
      const left = yield* row(
        tx.select({ id: slots.id }).from(slots).where(eq(slots.eventDateId, slot.eventDateId)).limit(1),
      );
      const held = yield* row(
        tx.select({ id: holds.id }).from(holds).where(eq(holds.eventDateId, slot.eventDateId)).limit(1),
      );
      if (!left && !held) yield* changes(tx.delete(eventDates).where(eq(eventDates.id, slot.eventDateId)));
    }
    yield* refreshEventTimesSteps(tx, eventId);

    const bookedFrom = sql`coalesce(${bookings.rescheduledFrom}, ${bookings.ticketSlot})`;
    const moved = yield* rows(
      tx
        .update(bookings)
        .set({
          ticketDate: date.dateOfEvent,
          ticketSlot: startTime,
          ticketSlotEnd: endTime,
          // What the holder bought, until the show is back at that start.
          rescheduledFrom: sql`case when ${bookedFrom} = ${startTime} then null else ${bookedFrom} end`,
          // The window follows the show: a later change of time on the new day moves it with the start.
          rescheduleRefundUntil: dateMoved
            ? startTime
            : sql`case when ${bookings.rescheduleRefundUntil} is null then null else ${startTime} end`,
        })
        .where(and(eq(bookings.slotId, slot.id), eq(bookings.status, 'confirmed')))
        .returning({
          id: bookings.id,
          userName: bookings.userName,
          userEmail: bookings.userEmail,
          eventName: bookings.eventName,
          totalAmountPaise: bookings.totalAmountPaise,
          paidByUserId: bookings.paidByUserId,
          refundUntil: bookings.rescheduleRefundUntil,
        }),
    );
    for (const booking of moved) {
      yield* recordBookingEventSteps(tx, {
        bookingId: booking.id,
        kind: 'rescheduled',
        actor: 'organiser',
        actorUserId,
        at: now,
        details: { fromStart: slot.startTime, toStart: startTime },
      });
      yield* enqueueMailSteps(
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
          dateMoved,
          // A transferred ticket's refund belongs to whoever paid, who no longer holds it (ADR 0025).
          fullRefund:
            booking.refundUntil && !booking.paidByUserId
              ? { amountPaise: booking.totalAmountPaise, until: booking.refundUntil }
              : null,
          ticketUrl: `${siteUrl(deps)}/ticket/${encodeURIComponent(booking.id)}`,
          supportEmail: deps.env.SUPPORT_EMAIL,
        }),
        now,
      );
    }
    return { version, holdersMailed: moved.length, dateMoved };
  });
}

/** Whether 'yyyy-MM-dd' names a real day (not 31 April): it reads back as itself. */
function isCalendarDay(day: string): boolean {
  const instant = Date.parse(`${day}T12:00:00.000+05:30`);
  return !Number.isNaN(instant) && indiaCalendarDay(new Date(instant)) === day;
}

/** The event's date on this India calendar day, made when it has none. */
function* dateOnDaySteps(
  tx: WriteTx,
  eventId: string,
  day: string,
): Steps<{ id: string; dateOfEvent: string }> {
  const { eventDates } = tablesOf(tx);
  // Compared as calendar days, as add-event-date.ts does: older dates hold a show's start, not midnight.
  const dates = yield* rows(
    tx
      .select({ id: eventDates.id, dateOfEvent: eventDates.dateOfEvent })
      .from(eventDates)
      .where(eq(eventDates.eventId, eventId)),
  );
  const existing = dates.find((date) => indiaCalendarDay(date.dateOfEvent) === day);
  if (existing) return existing;
  const created = { id: `date-${randomUUID()}`, dateOfEvent: indiaInstant(day, '00:00') };
  yield* changes(tx.insert(eventDates).values({ ...created, eventId, isLive: true }));
  return created;
}
