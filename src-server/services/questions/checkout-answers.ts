import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  answerKey,
  answersSchemaFor,
  type CheckedAnswers,
  type CheckoutAnswers,
  nameKey,
  type TicketTypeForm,
} from '../../../shared/question-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { changes, row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { preparedQueries } from '../../db/prepared-queries.ts';
import { badRequest } from '../../errors.ts';
import { questionFieldsOf } from './manage-questions.ts';

/**
 * The buyer's side of attendee names and questions (issue 40, ADR 0040): what the checkout asks, the
 * server's check of the answers at Proceed (before any gateway order, like a discount code), and their
 * keeping: written with the hold in Proceed's transaction, given the booking id when it is confirmed.
 */

/** What the checkout asks for these ticket types (those asking nothing are left out). */
export function ticketTypeForms(db: DbOrTx, ticketTypeIds: string[]): TicketTypeForm[] {
  return runSync(ticketTypeFormsSteps(db, ticketTypeIds));
}

/** `ticketTypeForms` written once for both engines (ADR 0045). */
export function* ticketTypeFormsSteps(db: DbOrTx, ticketTypeIds: string[]): Steps<TicketTypeForm[]> {
  if (ticketTypeIds.length === 0) return [];
  const { ticketTypes, attendeeNameSettings, ticketQuestions } = tablesOf(db);
  const types = yield* rows(
    db
      .select({ id: ticketTypes.id, name: ticketTypes.name, mode: attendeeNameSettings.mode })
      .from(ticketTypes)
      .leftJoin(attendeeNameSettings, eq(attendeeNameSettings.ticketTypeId, ticketTypes.id))
      .where(inArray(ticketTypes.id, ticketTypeIds))
      .orderBy(asc(ticketTypes.position)),
  );
  const questions = yield* rows(
    db
      .select(questionFieldsOf(ticketQuestions))
      .from(ticketQuestions)
      .where(and(inArray(ticketQuestions.ticketTypeId, ticketTypeIds), isNull(ticketQuestions.removedAt)))
      .orderBy(asc(ticketQuestions.position), asc(ticketQuestions.createdAt)),
  );
  return types
    .map((t) => ({
      ticketTypeId: t.id,
      ticketTypeName: t.name,
      attendeeNames: t.mode ?? ('off' as const),
      questions: questions.filter((q) => q.ticketTypeId === t.id),
    }))
    .filter((f) => f.attendeeNames !== 'off' || f.questions.length > 0);
}

/**
 * The checkout's form for a published event's slot (nothing for an unknown or unpublished one), on either
 * engine (ADR 0045).
 */
export function slotFormsOfEvent(db: DbOrTx, eventId: string, slotId: string): Promise<TicketTypeForm[]> {
  return runStatements(db, function* (d) {
    const { ticketTypes, slots, eventDates, events } = tablesOf(d);
    const ids = yield* rows(
      d
        .select({ id: ticketTypes.id })
        .from(ticketTypes)
        .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .innerJoin(events, eq(events.id, eventDates.eventId))
        .where(
          and(
            eq(ticketTypes.slotId, slotId),
            eq(events.id, eventId),
            eq(events.status, 'published'),
            eq(ticketTypes.isLive, true),
          ),
        ),
    );
    return yield* ticketTypeFormsSteps(
      d,
      ids.map((r) => r.id),
    );
  });
}

/**
 * Checks the buyer's answers against the stored questions of the selection (zod built from them): a
 * required answer missing, a choice not among the options, a text over 200 characters or a name outside
 * 2–80 characters is refused with its message. Answers to questions not asked are dropped.
 */
export function checkCheckoutAnswers(
  db: DbOrTx,
  lines: { ticketTypeId: string; quantity: number; asks?: boolean }[],
  raw: CheckoutAnswers | undefined,
): CheckedAnswers {
  return runSync(checkCheckoutAnswersSteps(db, lines, raw));
}

/** `checkCheckoutAnswers` written once for both engines (ADR 0045). */
export function* checkCheckoutAnswersSteps(
  db: DbOrTx,
  lines: { ticketTypeId: string; quantity: number; asks?: boolean }[],
  raw: CheckoutAnswers | undefined,
): Steps<CheckedAnswers> {
  // Most events ask nothing: a line's `asks` (ASKS_OF_TYPE, read by the caller with the type) or two
  // prepared look-ups per line spare Proceed's rush building queries.
  let asked = false;
  for (const { ticketTypeId, asks: known } of lines) {
    asked =
      known ??
      ((yield* row(askQuery(db, 'question'), { ticketTypeId })) !== undefined ||
        (yield* row(askQuery(db, 'names'), { ticketTypeId })) !== undefined);
    if (asked) break;
  }
  if (!asked) return { names: [], answers: [] };
  const forms = yield* ticketTypeFormsSteps(
    db,
    lines.map((l) => l.ticketTypeId),
  );
  if (forms.length === 0) return { names: [], answers: [] };
  return answersOf(forms, lines, raw);
}

function answersOf(
  forms: TicketTypeForm[],
  lines: { ticketTypeId: string; quantity: number }[],
  raw: CheckoutAnswers | undefined,
): CheckedAnswers {
  const quantities = new Map(lines.map((l) => [l.ticketTypeId, l.quantity]));
  const given: Record<string, string> = {};
  for (const n of raw?.names ?? []) given[nameKey(n.ticketTypeId, n.position)] = n.name;
  for (const a of raw?.answers ?? []) given[answerKey(a.questionId, a.position)] = a.value;
  const schema = answersSchemaFor(forms, quantities);
  // A field never sent is an empty answer: "required" then says so.
  const input = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, given[key] ?? '']));
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    throw badRequest(parsed.error.issues[0]!.message, fieldErrors);
  }
  const checked: CheckedAnswers = { names: [], answers: [] };
  for (const [key, value] of Object.entries(parsed.data as Record<string, string>)) {
    if (value === '') continue;
    const [kind, id, position] = key.split(':') as [string, string, string];
    if (kind === 'name') checked.names.push({ ticketTypeId: id, position: Number(position), name: value });
    else checked.answers.push({ questionId: id, position: Number(position), value });
  }
  return checked;
}

/**
 * Whether the type asks for names or answers (1) or not (0), as a column of a query on `ticket_types`:
 * Proceed reads it with the type's sale window, so the buyer who is asked nothing costs no statement here.
 */
export const ASKS_OF_TYPE = sql<number>`(exists (select 1 from ticket_questions
  where ticket_questions.ticket_type_id = ticket_types.id and ticket_questions.removed_at is null)
  or exists (select 1 from attendee_name_settings where attendee_name_settings.ticket_type_id = ticket_types.id))`;

// Prepared once per database, on either engine (the engine's own tables, ADR 0045).
const askQuery = preparedQueries({
  question: (db: DbOrTx) => {
    const { ticketQuestions } = tablesOf(db);
    return db
      .select({ id: ticketQuestions.id })
      .from(ticketQuestions)
      .where(
        and(
          eq(ticketQuestions.ticketTypeId, sql.placeholder('ticketTypeId')),
          isNull(ticketQuestions.removedAt),
        ),
      )
      .limit(1)
      .prepare();
  },
  names: (db: DbOrTx) => {
    const { attendeeNameSettings } = tablesOf(db);
    return db
      .select({ id: attendeeNameSettings.ticketTypeId })
      .from(attendeeNameSettings)
      .where(eq(attendeeNameSettings.ticketTypeId, sql.placeholder('ticketTypeId')))
      .prepare();
  },
});

/**
 * Keeps the checked answers with the hold, a step of Proceed's write transaction (ADR 0045), so they
 * are kept on either engine. Nothing asked, no statement.
 */
export function* saveHoldAnswersSteps(
  tx: DbOrTx,
  holdId: string,
  checked: CheckedAnswers,
  now: Date,
): Steps<void> {
  const { bookingAttendees, bookingAnswers } = tablesOf(tx);
  if (checked.names.length > 0) {
    yield* changes(
      tx
        .insert(bookingAttendees)
        .values(checked.names.map((n) => ({ holdId, ...n, updatedAt: now.toISOString() }))),
    );
  }
  if (checked.answers.length > 0) {
    yield* changes(tx.insert(bookingAnswers).values(checked.answers.map((a) => ({ holdId, ...a }))));
  }
}

/** At confirmation, a step of its transaction (ADR 0045): the hold's names and answers become the booking's. */
export function* attachAnswersSteps(tx: DbOrTx, holdId: string, bookingId: string): Steps<void> {
  const { bookingAttendees, bookingAnswers } = tablesOf(tx);
  yield* changes(tx.update(bookingAttendees).set({ bookingId }).where(eq(bookingAttendees.holdId, holdId)));
  yield* changes(tx.update(bookingAnswers).set({ bookingId }).where(eq(bookingAnswers.holdId, holdId)));
}
