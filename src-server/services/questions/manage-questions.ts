import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  type AttendeeNameMode,
  QUESTION_MESSAGES,
  QUESTIONS_PER_TYPE_MAX,
  type QuestionFields,
  type TicketQuestion,
} from '../../../shared/question-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { ticketQuestions } from '../../db/schema/questions.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import { findTicketTypeInEventSteps } from '../event-editor/find-in-event.ts';

/**
 * The console's questions section (issue 40): an organiser with `edit` on the event adds, changes and
 * removes a ticket type's questions and chooses whether its checkout asks attendee names. Another
 * event's ticket type or question answers as not found. Written once for both engines (ADR 0045).
 */

/** One ticket type's questions and name setting, as the editor shows them. */
export interface TicketTypeQuestions {
  ticketTypeId: string;
  attendeeNames: AttendeeNameMode;
  questions: TicketQuestion[];
}

export function createQuestion(
  db: DbOrTx,
  eventId: string,
  ticketTypeId: string,
  fields: QuestionFields,
  now: Date,
): Promise<TicketQuestion> {
  return runnerFor(db).write(function* (tx) {
    const { ticketQuestions } = tablesOf(tx);
    // Counted, then written: on PostgreSQL two editors adding at once take turns, so the type never
    // passes its limit and no two questions share a position.
    yield* serialize(`ticket-questions:${ticketTypeId}`);
    yield* findTicketTypeInEventSteps(tx as WriteTx, eventId, ticketTypeId);
    const count = Number(
      (yield* row(
        tx
          .select({ n: sql<number>`count(*)` })
          .from(ticketQuestions)
          .where(and(eq(ticketQuestions.ticketTypeId, ticketTypeId), isNull(ticketQuestions.removedAt))),
      ))!.n,
    );
    if (count >= QUESTIONS_PER_TYPE_MAX) throw badRequest(QUESTION_MESSAGES.tooManyQuestions);
    const id = randomUUID();
    yield* changes(
      tx.insert(ticketQuestions).values({
        id,
        eventId,
        ticketTypeId,
        ...fields,
        position: count,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      }),
    );
    return { id, ticketTypeId, ...fields };
  });
}

/**
 * Changes a question's wording, options, kind or rules. Answers already given stay as they were given
 * (pretix does the same): the next buyer is asked the new question.
 */
export function updateQuestion(
  db: DbOrTx,
  eventId: string,
  questionId: string,
  fields: QuestionFields,
  now: Date,
): Promise<TicketQuestion> {
  return runnerFor(db).write(function* (tx) {
    const { ticketQuestions } = tablesOf(tx);
    const question = yield* findQuestionSteps(tx, eventId, questionId);
    yield* changes(
      tx
        .update(ticketQuestions)
        .set({ ...fields, updatedAt: now.toISOString() })
        .where(eq(ticketQuestions.id, questionId)),
    );
    return { id: questionId, ticketTypeId: question.ticketTypeId, ...fields };
  });
}

/** No longer asked; its answers stay on the bookings that gave them (the row is kept, marked removed). */
export function removeQuestion(
  db: DbOrTx,
  eventId: string,
  questionId: string,
  now: Date,
): Promise<{ id: string }> {
  return runnerFor(db).write(function* (tx) {
    const { ticketQuestions } = tablesOf(tx);
    yield* findQuestionSteps(tx, eventId, questionId);
    yield* changes(
      tx
        .update(ticketQuestions)
        .set({ removedAt: now.toISOString(), updatedAt: now.toISOString() })
        .where(eq(ticketQuestions.id, questionId)),
    );
    return { id: questionId };
  });
}

export function setAttendeeNames(
  db: DbOrTx,
  eventId: string,
  ticketTypeId: string,
  mode: AttendeeNameMode,
): Promise<{ ticketTypeId: string; mode: AttendeeNameMode }> {
  return runnerFor(db).write(function* (tx) {
    const { attendeeNameSettings } = tablesOf(tx);
    yield* findTicketTypeInEventSteps(tx as WriteTx, eventId, ticketTypeId);
    if (mode === 'off') {
      yield* changes(
        tx.delete(attendeeNameSettings).where(eq(attendeeNameSettings.ticketTypeId, ticketTypeId)),
      );
    } else {
      yield* changes(
        tx
          .insert(attendeeNameSettings)
          .values({ ticketTypeId, mode })
          .onConflictDoUpdate({ target: attendeeNameSettings.ticketTypeId, set: { mode } }),
      );
    }
    return { ticketTypeId, mode };
  });
}

/** Every ticket type of the event with its live questions, for the editor's section. */
export function listEventQuestions(db: DbOrTx, eventId: string): Promise<TicketTypeQuestions[]> {
  return runStatements(db, function* (d) {
    const { ticketTypes, slots, eventDates, attendeeNameSettings, ticketQuestions } = tablesOf(d);
    const types = yield* rows(
      d
        .select({ id: ticketTypes.id, mode: attendeeNameSettings.mode })
        .from(ticketTypes)
        .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .leftJoin(attendeeNameSettings, eq(attendeeNameSettings.ticketTypeId, ticketTypes.id))
        .where(eq(eventDates.eventId, eventId)),
    );
    const questions = yield* rows(
      d
        .select(questionFieldsOf(ticketQuestions))
        .from(ticketQuestions)
        .where(and(eq(ticketQuestions.eventId, eventId), isNull(ticketQuestions.removedAt)))
        .orderBy(asc(ticketQuestions.position), asc(ticketQuestions.createdAt)),
    );
    return types.map((t) => ({
      ticketTypeId: t.id,
      attendeeNames: t.mode ?? 'off',
      questions: questions.filter((q) => q.ticketTypeId === t.id),
    }));
  });
}

/** The columns a question is answered with, of the engine's own table. */
export function questionFieldsOf(table: typeof ticketQuestions) {
  return {
    id: table.id,
    ticketTypeId: table.ticketTypeId,
    label: table.label,
    kind: table.kind,
    options: table.options,
    required: table.required,
    scope: table.scope,
  };
}

function* findQuestionSteps(tx: DbOrTx, eventId: string, questionId: string) {
  const { ticketQuestions } = tablesOf(tx);
  const question = yield* row(
    tx
      .select({ ticketTypeId: ticketQuestions.ticketTypeId })
      .from(ticketQuestions)
      .where(
        and(
          eq(ticketQuestions.id, questionId),
          eq(ticketQuestions.eventId, eventId),
          isNull(ticketQuestions.removedAt),
        ),
      ),
  );
  if (!question) throw notFound(QUESTION_MESSAGES.questionNotFound);
  return question;
}
