import { and, asc, eq, inArray } from 'drizzle-orm';
import type { QuestionScope } from '../../../shared/question-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/** An attendee name given at checkout (or corrected since), for the booking page, the gate and the export. */
export interface BookingAttendee {
  ticketTypeId: string;
  ticketTypeName: string;
  position: number;
  name: string;
  /**
   * Their own ticket (ADR 0046) was cancelled by a part refund: the name stays on record, but the person
   * holds no ticket any more, and the booking page and the gate's look-up say so.
   */
  cancelled: boolean;
}

/** An answer with its question as it reads now (a removed question keeps its label). */
export interface BookingAnswer {
  questionId: string;
  label: string;
  scope: QuestionScope;
  ticketTypeId: string;
  ticketTypeName: string;
  /** 0: the booking's answer; n: the n-th ticket of the question's type. */
  position: number;
  value: string;
}

export interface BookingAnswers {
  attendees: BookingAttendee[];
  answers: BookingAnswer[];
}

/** The names and answers of some bookings (at most a page's worth), by booking id. */
export function answersOfBookings(db: DbOrTx, bookingIds: string[]): Map<string, BookingAnswers> {
  return runSync(answersOfBookingsSteps(db, bookingIds));
}

/** `answersOfBookings` written once for both engines (ADR 0045). */
export function* answersOfBookingsSteps(
  db: DbOrTx,
  bookingIds: string[],
): Steps<Map<string, BookingAnswers>> {
  const out = new Map<string, BookingAnswers>();
  if (bookingIds.length === 0) return out;
  const { attendeeTickets, bookingAnswers, bookingAttendees, ticketQuestions, ticketTypes } = tablesOf(db);
  for (const id of bookingIds) out.set(id, { attendees: [], answers: [] });
  const attendees = yield* rows(
    db
      .select({
        bookingId: bookingAttendees.bookingId,
        ticketTypeId: bookingAttendees.ticketTypeId,
        ticketTypeName: ticketTypes.name,
        position: bookingAttendees.position,
        name: bookingAttendees.name,
        voidedAt: attendeeTickets.voidedAt,
      })
      .from(bookingAttendees)
      .innerJoin(ticketTypes, eq(ticketTypes.id, bookingAttendees.ticketTypeId))
      .leftJoin(
        attendeeTickets,
        and(
          eq(attendeeTickets.bookingId, bookingAttendees.bookingId),
          eq(attendeeTickets.ticketTypeId, bookingAttendees.ticketTypeId),
          eq(attendeeTickets.position, bookingAttendees.position),
        ),
      )
      .where(inArray(bookingAttendees.bookingId, bookingIds))
      .orderBy(asc(ticketTypes.position), asc(bookingAttendees.position)),
  );
  for (const { bookingId, voidedAt, ...a } of attendees)
    out.get(bookingId!)?.attendees.push({ ...a, cancelled: voidedAt !== null });
  const answers = yield* rows(
    db
      .select({
        bookingId: bookingAnswers.bookingId,
        questionId: bookingAnswers.questionId,
        label: ticketQuestions.label,
        scope: ticketQuestions.scope,
        ticketTypeId: ticketQuestions.ticketTypeId,
        ticketTypeName: ticketTypes.name,
        position: bookingAnswers.position,
        value: bookingAnswers.value,
      })
      .from(bookingAnswers)
      .innerJoin(ticketQuestions, eq(ticketQuestions.id, bookingAnswers.questionId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, ticketQuestions.ticketTypeId))
      .where(inArray(bookingAnswers.bookingId, bookingIds))
      .orderBy(asc(ticketTypes.position), asc(bookingAnswers.position), asc(ticketQuestions.position)),
  );
  for (const { bookingId, ...a } of answers) out.get(bookingId!)?.answers.push(a);
  return out;
}

/** One booking's names and answers, written once for both engines (ADR 0045). */
export function* answersOfBookingSteps(db: DbOrTx, bookingId: string): Steps<BookingAnswers> {
  return (yield* answersOfBookingsSteps(db, [bookingId])).get(bookingId)!;
}

/**
 * Every question an event has asked (removed ones too: their answers are still on bookings), in order.
 * Written once for both engines (ADR 0045), for the orders CSV.
 */
export function* eventQuestionColumnsSteps(
  db: DbOrTx,
  eventId: string,
): Steps<{ id: string; label: string; ticketTypeName: string }[]> {
  const { ticketQuestions, ticketTypes } = tablesOf(db);
  return yield* rows(
    db
      .select({ id: ticketQuestions.id, label: ticketQuestions.label, ticketTypeName: ticketTypes.name })
      .from(ticketQuestions)
      .innerJoin(ticketTypes, eq(ticketTypes.id, ticketQuestions.ticketTypeId))
      .where(eq(ticketQuestions.eventId, eventId))
      .orderBy(asc(ticketTypes.position), asc(ticketQuestions.position), asc(ticketQuestions.createdAt)),
  );
}

/** Whether any ticket type of the event asks attendee names (a small table, read once per export). */
export function* eventAsksNamesSteps(db: DbOrTx, eventId: string): Steps<boolean> {
  const { attendeeNameSettings, eventDates, slots, ticketTypes } = tablesOf(db);
  const asked = yield* row(
    db
      .select({ id: attendeeNameSettings.ticketTypeId })
      .from(attendeeNameSettings)
      .innerJoin(ticketTypes, eq(ticketTypes.id, attendeeNameSettings.ticketTypeId))
      .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(eq(eventDates.eventId, eventId))
      .limit(1),
  );
  return !!asked;
}
