import type { DbOrTx } from '../../db/client.ts';
import type { Steps } from '../../db/engine/steps.ts';
import { type BookingAnswers, eventAsksNamesSteps, eventQuestionColumnsSteps } from './booking-answers.ts';

/** The orders CSV's attendee-names column header. */
export const ATTENDEE_NAMES_COLUMN = 'Attendee names';

/**
 * The orders CSV's columns for attendee names and questions (issue 40): 'Attendee names', then one
 * column per question, a question asked of several ticket types (each slot has its own) under one
 * column by its wording. An event that asks neither has none of these columns. A row is one ticket type of an order: it carries that type's names and
 * answers; a per-ticket answer lists each ticket's as "1: …; 2: …".
 */
export interface AnswerColumns {
  header: string[];
  cells(answers: BookingAnswers | undefined, ticketTypeId: string | undefined): (string | null)[];
}

/** The event's answer columns, read once for both engines (ADR 0045). */
export function* answerColumnsOfSteps(db: DbOrTx, eventId: string): Steps<AnswerColumns> {
  const labels: string[] = [];
  const columnOf = new Map<string, number>();
  const questions = yield* eventQuestionColumnsSteps(db, eventId);
  // An event that asks nothing keeps the orders CSV it always had.
  if (questions.length === 0 && !(yield* eventAsksNamesSteps(db, eventId))) {
    return { header: [], cells: () => [] };
  }
  for (const q of questions) {
    if (!labels.includes(q.label)) labels.push(q.label);
    columnOf.set(q.id, labels.indexOf(q.label));
  }
  return {
    header: [ATTENDEE_NAMES_COLUMN, ...labels],
    cells(answers, ticketTypeId) {
      const cells: (string | null)[] = [null, ...labels.map(() => null)];
      if (!answers || ticketTypeId === undefined) return cells;
      const names = answers.attendees.filter((a) => a.ticketTypeId === ticketTypeId);
      if (names.length > 0) cells[0] = names.map((a) => `${a.position}: ${a.name}`).join('; ');
      for (const answer of answers.answers) {
        if (answer.ticketTypeId !== ticketTypeId) continue;
        const column = columnOf.get(answer.questionId);
        if (column === undefined) continue;
        const text = answer.position === 0 ? answer.value : `${answer.position}: ${answer.value}`;
        const cell = cells[column + 1];
        cells[column + 1] = cell ? `${cell}; ${text}` : text;
      }
      return cells;
    },
  };
}
