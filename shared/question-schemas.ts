import { z } from 'zod';

/**
 * Attendee names and questions (issue 40, ADR 0040): what the organiser sets per ticket type, and the
 * one zod schema, built from the stored questions, that checks a buyer's answers on the server (Proceed)
 * and in the checkout form.
 */

export const QUESTION_KINDS = ['text', 'choice', 'yes_no'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** Once per booking, or once per ticket of the type ("attendee" = one ticket, as pretix's order position). */
export const QUESTION_SCOPES = ['booking', 'attendee'] as const;
export type QuestionScope = (typeof QUESTION_SCOPES)[number];

/** Whether the checkout asks each ticket's attendee name: not at all, optionally, or as a must. */
export const ATTENDEE_NAME_MODES = ['off', 'optional', 'required'] as const;
export type AttendeeNameMode = (typeof ATTENDEE_NAME_MODES)[number];

export const ANSWER_TEXT_MAX = 200;
export const ATTENDEE_NAME_MIN = 2;
export const ATTENDEE_NAME_MAX = 80;
const LABEL_MAX = 200;
const OPTION_MAX = 100;
const OPTIONS_MAX = 20;
/** Questions one ticket type may carry: a form, not a survey. */
export const QUESTIONS_PER_TYPE_MAX = 20;
const ID_MAX = 200;

export const QUESTION_MESSAGES = {
  questionNotFound: 'Question not found',
  tooManyQuestions: `A ticket type can have at most ${QUESTIONS_PER_TYPE_MAX} questions`,
  optionsNeeded: 'A choice question needs at least two options',
  optionsDistinct: 'Each option once',
  nameTooShort: `Attendee name must be at least ${ATTENDEE_NAME_MIN} characters`,
  nameTooLong: `Attendee name must be at most ${ATTENDEE_NAME_MAX} characters`,
  nameCutOffPassed: 'Names can no longer be changed: the show starts within 24 hours',
  bookingNotChangeable: 'This booking can no longer be changed',
  attendeeNotFound: 'Attendee not found',
  answersTooMany: 'Too many answers',
} as const;

/** `Attendee 2 (Gold): Name is required`-style prefixes name the field a message is about. */
export function answerRequiredMessage(label: string): string {
  return `${label}: an answer is required`;
}
export function answerTooLongMessage(label: string): string {
  return `${label}: at most ${ANSWER_TEXT_MAX} characters`;
}
export function answerChoiceMessage(label: string): string {
  return `${label}: choose one of the options`;
}

const labelSchema = z
  .string()
  .trim()
  .min(1, 'Question is required')
  .max(LABEL_MAX, `Question must be at most ${LABEL_MAX} characters`);

/** One question as the console's form sends it (create and edit). */
export const questionFieldsSchema = z
  .object({
    label: labelSchema,
    kind: z.enum(QUESTION_KINDS),
    options: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'Option is empty')
          .max(OPTION_MAX, `Options are at most ${OPTION_MAX} characters`),
      )
      .max(OPTIONS_MAX, `At most ${OPTIONS_MAX} options`)
      .default([]),
    required: z.boolean(),
    scope: z.enum(QUESTION_SCOPES),
  })
  .superRefine((q, ctx) => {
    if (q.kind !== 'choice') return;
    if (q.options.length < 2)
      ctx.addIssue({ code: 'custom', message: QUESTION_MESSAGES.optionsNeeded, path: ['options'] });
    if (new Set(q.options).size !== q.options.length) {
      ctx.addIssue({ code: 'custom', message: QUESTION_MESSAGES.optionsDistinct, path: ['options'] });
    }
  })
  // Options only mean something for a choice.
  .transform((q) => ({ ...q, options: q.kind === 'choice' ? q.options : [] }));
export type QuestionFields = z.infer<typeof questionFieldsSchema>;

export const CreateQuestionInput = z.object({
  eventId: z.string().min(1).max(ID_MAX),
  ticketTypeId: z.string().min(1).max(ID_MAX),
  question: questionFieldsSchema,
});
export const UpdateQuestionInput = z.object({
  eventId: z.string().min(1).max(ID_MAX),
  questionId: z.string().min(1).max(ID_MAX),
  question: questionFieldsSchema,
});
export const RemoveQuestionInput = z.object({
  eventId: z.string().min(1).max(ID_MAX),
  questionId: z.string().min(1).max(ID_MAX),
});
export const SetAttendeeNamesInput = z.object({
  eventId: z.string().min(1).max(ID_MAX),
  ticketTypeId: z.string().min(1).max(ID_MAX),
  mode: z.enum(ATTENDEE_NAME_MODES),
});
export const CheckoutQuestionsInput = z.object({
  eventId: z.string().min(1).max(ID_MAX),
  slotId: z.string().min(1).max(ID_MAX),
});

export const attendeeNameSchema = z
  .string()
  .trim()
  .min(ATTENDEE_NAME_MIN, QUESTION_MESSAGES.nameTooShort)
  .max(ATTENDEE_NAME_MAX, QUESTION_MESSAGES.nameTooLong);

export const CorrectAttendeeNameInput = z.object({
  bookingId: z.string().min(1).max(ID_MAX),
  ticketTypeId: z.string().min(1).max(ID_MAX),
  position: z.number().int().min(1).max(1000),
  name: attendeeNameSchema,
});

/** A question as the checkout and the console see it. */
export interface TicketQuestion {
  id: string;
  ticketTypeId: string;
  label: string;
  kind: QuestionKind;
  options: string[];
  required: boolean;
  scope: QuestionScope;
}

/** What the checkout asks for one ticket type of the slot. */
export interface TicketTypeForm {
  ticketTypeId: string;
  ticketTypeName: string;
  attendeeNames: AttendeeNameMode;
  questions: TicketQuestion[];
}

/**
 * What the buyer sends at Proceed. Each value is kept short by the raw schema already (a 50,000-character
 * answer is refused before any question is read); the per-question rules come from `answersSchemaFor`.
 */
const RAW_VALUE_MAX = 1000;
const RAW_ENTRIES_MAX = 2000;
export const checkoutAnswersSchema = z
  .object({
    /** The n-th ticket (1-based) of a type: its attendee name. */
    names: z
      .array(
        z.object({
          ticketTypeId: z.string().min(1).max(ID_MAX),
          position: z.number().int().min(1).max(1000),
          name: z.string().max(RAW_VALUE_MAX, QUESTION_MESSAGES.nameTooLong),
        }),
      )
      .max(RAW_ENTRIES_MAX, QUESTION_MESSAGES.answersTooMany)
      .default([]),
    /** position 0: the booking's answer; n ≥ 1: the n-th ticket of the question's type. */
    answers: z
      .array(
        z.object({
          questionId: z.string().min(1).max(ID_MAX),
          position: z.number().int().min(0).max(1000),
          value: z.string().max(RAW_VALUE_MAX, `Answers are at most ${ANSWER_TEXT_MAX} characters`),
        }),
      )
      .max(RAW_ENTRIES_MAX, QUESTION_MESSAGES.answersTooMany)
      .default([]),
  })
  .default({ names: [], answers: [] });
export type CheckoutAnswers = z.infer<typeof checkoutAnswersSchema>;

/** The buyer's answers once checked: only for questions asked, every value in its stored form. */
export interface CheckedAnswers {
  names: { ticketTypeId: string; position: number; name: string }[];
  answers: { questionId: string; position: number; value: string }[];
}

/** 'Yes' / 'No': how a yes/no answer is stored and shown. */
export const YES = 'Yes';
export const NO = 'No';

/** Who a field is about, for messages: "Gold, ticket 2" or "Gold" for a per-booking question. */
export function attendeeLabel(typeName: string, position: number): string {
  return position === 0 ? typeName : `${typeName}, ticket ${position}`;
}

/**
 * The zod schema of one value of a question: a required answer must be there, a choice must be one of
 * the options, a text at most 200 characters, a yes/no 'Yes' or 'No'. Unrequired and empty: no answer.
 */
export function answerValueSchema(
  question: Pick<TicketQuestion, 'label' | 'kind' | 'options' | 'required'>,
  label: string,
) {
  const base = z.string().trim();
  const present = (v: string) => v.length > 0;
  const rule =
    question.kind === 'text'
      ? base.max(ANSWER_TEXT_MAX, answerTooLongMessage(label))
      : question.kind === 'choice'
        ? base.refine((v) => !present(v) || question.options.includes(v), answerChoiceMessage(label))
        : base.refine((v) => !present(v) || v === YES || v === NO, answerChoiceMessage(label));
  return question.required ? rule.refine(present, answerRequiredMessage(label)) : rule;
}

/**
 * The schema of a whole order's answers, built from the stored questions of the selection's ticket
 * types: every field the checkout asks appears once, keyed as the buyer sends it. Used by Proceed on the
 * server and by the checkout form (the same messages).
 */
export function answersSchemaFor(forms: TicketTypeForm[], quantities: Map<string, number>) {
  const fields: Record<string, z.ZodType<string>> = {};
  for (const form of forms) {
    const quantity = quantities.get(form.ticketTypeId) ?? 0;
    if (quantity === 0) continue;
    for (let position = 1; position <= quantity; position++) {
      if (form.attendeeNames === 'off') continue;
      const who = attendeeLabel(form.ticketTypeName, position);
      const name = z
        .string()
        .trim()
        .refine(
          (v) => v.length === 0 || v.length >= ATTENDEE_NAME_MIN,
          `${who}: ${QUESTION_MESSAGES.nameTooShort}`,
        )
        .refine((v) => v.length <= ATTENDEE_NAME_MAX, `${who}: ${QUESTION_MESSAGES.nameTooLong}`);
      fields[nameKey(form.ticketTypeId, position)] =
        form.attendeeNames === 'required'
          ? name.refine((v) => v.length > 0, `${who}: attendee name is required`)
          : name;
    }
    for (const question of form.questions) {
      const positions = question.scope === 'booking' ? [0] : range(quantity);
      for (const position of positions) {
        const who = `${attendeeLabel(form.ticketTypeName, position)}: ${question.label}`;
        fields[answerKey(question.id, position)] = answerValueSchema(question, who);
      }
    }
  }
  return z.object(fields);
}

export function nameKey(ticketTypeId: string, position: number): string {
  return `name:${ticketTypeId}:${position}`;
}
export function answerKey(questionId: string, position: number): string {
  return `answer:${questionId}:${position}`;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

/** The checkout form's values (keyed by `nameKey` / `answerKey`) as Proceed's `answers` input. */
export function checkoutAnswersOf(values: Record<string, string>): CheckoutAnswers {
  const out: CheckoutAnswers = { names: [], answers: [] };
  for (const [key, value] of Object.entries(values)) {
    const [kind, id, position] = key.split(':');
    if (!id || position === undefined || value.trim() === '') continue;
    if (kind === 'name') out.names.push({ ticketTypeId: id, position: Number(position), name: value });
    if (kind === 'answer') out.answers.push({ questionId: id, position: Number(position), value });
  }
  return out;
}

/** The first problem per field of the checkout's answers (the server's rules, the same messages). */
export function answerProblems(
  forms: TicketTypeForm[],
  quantities: Map<string, number>,
  values: Record<string, string>,
): Record<string, string> {
  const schema = answersSchemaFor(forms, quantities);
  const input = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, values[key] ?? '']));
  const parsed = schema.safeParse(input);
  const problems: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) problems[String(issue.path[0])] ??= issue.message;
  return problems;
}
