import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  type AttendeeNameMode,
  QUESTION_MESSAGES,
  QUESTIONS_PER_TYPE_MAX,
  type QuestionFields,
  type TicketQuestion,
} from '../../../shared/question-schemas.ts';
import type { Db } from '../../db/client.ts';
import { eventDates, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { attendeeNameSettings, ticketQuestions } from '../../db/schema/questions.ts';
import { type WriteTx, writeTransaction } from '../../db/write-transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import { findTicketTypeInEvent } from '../event-editor/find-in-event.ts';

/**
 * The console's questions section (issue 40): an organiser with `edit` on the event adds, changes and
 * removes a ticket type's questions and chooses whether its checkout asks attendee names. Another
 * event's ticket type or question answers as not found.
 */

/** One ticket type's questions and name setting, as the editor shows them. */
export interface TicketTypeQuestions {
  ticketTypeId: string;
  attendeeNames: AttendeeNameMode;
  questions: TicketQuestion[];
}

export function createQuestion(
  db: Db,
  eventId: string,
  ticketTypeId: string,
  fields: QuestionFields,
  now: Date,
): Promise<TicketQuestion> {
  return writeTransaction(db, (tx) => {
    findTicketTypeInEvent(tx, eventId, ticketTypeId);
    const count = tx
      .select({ n: sql<number>`count(*)` })
      .from(ticketQuestions)
      .where(and(eq(ticketQuestions.ticketTypeId, ticketTypeId), isNull(ticketQuestions.removedAt)))
      .get()!.n;
    if (count >= QUESTIONS_PER_TYPE_MAX) throw badRequest(QUESTION_MESSAGES.tooManyQuestions);
    const id = randomUUID();
    tx.insert(ticketQuestions)
      .values({
        id,
        eventId,
        ticketTypeId,
        ...fields,
        position: count,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .run();
    return { id, ticketTypeId, ...fields };
  });
}

/**
 * Changes a question's wording, options, kind or rules. Answers already given stay as they were given
 * (pretix does the same): the next buyer is asked the new question.
 */
export function updateQuestion(
  db: Db,
  eventId: string,
  questionId: string,
  fields: QuestionFields,
  now: Date,
): Promise<TicketQuestion> {
  return writeTransaction(db, (tx) => {
    const question = findQuestionIn(tx, eventId, questionId);
    tx.update(ticketQuestions)
      .set({ ...fields, updatedAt: now.toISOString() })
      .where(eq(ticketQuestions.id, questionId))
      .run();
    return { id: questionId, ticketTypeId: question.ticketTypeId, ...fields };
  });
}

/** No longer asked; its answers stay on the bookings that gave them (the row is kept, marked removed). */
export function removeQuestion(
  db: Db,
  eventId: string,
  questionId: string,
  now: Date,
): Promise<{ id: string }> {
  return writeTransaction(db, (tx) => {
    findQuestionIn(tx, eventId, questionId);
    tx.update(ticketQuestions)
      .set({ removedAt: now.toISOString(), updatedAt: now.toISOString() })
      .where(eq(ticketQuestions.id, questionId))
      .run();
    return { id: questionId };
  });
}

export function setAttendeeNames(
  db: Db,
  eventId: string,
  ticketTypeId: string,
  mode: AttendeeNameMode,
): Promise<{ ticketTypeId: string; mode: AttendeeNameMode }> {
  return writeTransaction(db, (tx) => {
    findTicketTypeInEvent(tx, eventId, ticketTypeId);
    if (mode === 'off') {
      tx.delete(attendeeNameSettings).where(eq(attendeeNameSettings.ticketTypeId, ticketTypeId)).run();
    } else {
      tx.insert(attendeeNameSettings)
        .values({ ticketTypeId, mode })
        .onConflictDoUpdate({ target: attendeeNameSettings.ticketTypeId, set: { mode } })
        .run();
    }
    return { ticketTypeId, mode };
  });
}

/** Every ticket type of the event with its live questions, for the editor's section. */
export function listEventQuestions(db: Db, eventId: string): TicketTypeQuestions[] {
  const types = db
    .select({ id: ticketTypes.id, mode: attendeeNameSettings.mode })
    .from(ticketTypes)
    .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
    .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
    .leftJoin(attendeeNameSettings, eq(attendeeNameSettings.ticketTypeId, ticketTypes.id))
    .where(eq(eventDates.eventId, eventId))
    .all();
  const questions = db
    .select(QUESTION_FIELDS)
    .from(ticketQuestions)
    .where(and(eq(ticketQuestions.eventId, eventId), isNull(ticketQuestions.removedAt)))
    .orderBy(asc(ticketQuestions.position), asc(ticketQuestions.createdAt))
    .all();
  return types.map((t) => ({
    ticketTypeId: t.id,
    attendeeNames: t.mode ?? 'off',
    questions: questions.filter((q) => q.ticketTypeId === t.id),
  }));
}

export const QUESTION_FIELDS = {
  id: ticketQuestions.id,
  ticketTypeId: ticketQuestions.ticketTypeId,
  label: ticketQuestions.label,
  kind: ticketQuestions.kind,
  options: ticketQuestions.options,
  required: ticketQuestions.required,
  scope: ticketQuestions.scope,
};

function findQuestionIn(tx: WriteTx, eventId: string, questionId: string) {
  const question = tx
    .select({ ticketTypeId: ticketQuestions.ticketTypeId })
    .from(ticketQuestions)
    .where(
      and(
        eq(ticketQuestions.id, questionId),
        eq(ticketQuestions.eventId, eventId),
        isNull(ticketQuestions.removedAt),
      ),
    )
    .get();
  if (!question) throw notFound(QUESTION_MESSAGES.questionNotFound);
  return question;
}
