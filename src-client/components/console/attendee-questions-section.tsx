import { useState } from 'react';
import { formatDateTime } from '../../../shared/dates.ts';
import {
  type AttendeeNameMode,
  type QuestionKind,
  type QuestionScope,
  questionFieldsSchema,
  type TicketQuestion,
} from '../../../shared/question-schemas.ts';
import { messageOf } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';

const KIND_LABELS: Record<QuestionKind, string> = {
  text: 'Short text',
  choice: 'Choice',
  yes_no: 'Yes / no',
};
const SCOPE_LABELS: Record<QuestionScope, string> = {
  booking: 'Once per booking',
  attendee: 'For each ticket',
};
const NAME_LABELS: Record<AttendeeNameMode, string> = {
  off: 'Not asked',
  optional: 'Asked, optional',
  required: 'Asked, required',
};

/** A ticket type as the editor lists it: where it is sold, for the heading. */
export interface QuestionsTicketType {
  id: string;
  name: string;
  slotStart: string;
}

/**
 * Issue 40: per ticket type, whether the checkout asks each ticket's attendee name, and the questions
 * it asks (short text, a choice, yes/no; required or not; once per booking or for each ticket). The
 * server checks every buyer's answers against these; removed questions keep the answers already given.
 */
export function AttendeeQuestionsSection({
  eventId,
  types,
}: {
  eventId: string;
  types: QuestionsTicketType[];
}) {
  const list = trpc.console.ticketQuestions.useQuery({ eventId });
  if (!list.data || types.length === 0) return null;
  const byType = new Map(list.data.map((t) => [t.ticketTypeId, t]));
  return (
    <section aria-labelledby="questions-heading" className="space-y-4">
      <h2 id="questions-heading" className="text-xl font-bold">
        Attendee names and questions
      </h2>
      {types.map((type) => {
        const settings = byType.get(type.id);
        return (
          <TypeQuestions
            key={type.id}
            eventId={eventId}
            type={type}
            attendeeNames={settings?.attendeeNames ?? 'off'}
            questions={settings?.questions ?? []}
          />
        );
      })}
    </section>
  );
}

function TypeQuestions({
  eventId,
  type,
  attendeeNames,
  questions,
}: {
  eventId: string;
  type: QuestionsTicketType;
  attendeeNames: AttendeeNameMode;
  questions: TicketQuestion[];
}) {
  const utils = trpc.useUtils();
  const refresh = () => utils.console.ticketQuestions.invalidate({ eventId });
  const setNames = trpc.console.setAttendeeNames.useMutation({ onSuccess: refresh });
  const remove = trpc.console.removeQuestion.useMutation({ onSuccess: refresh });
  const [editing, setEditing] = useState<TicketQuestion | 'new' | null>(null);
  const headingId = `questions-${type.id}`;
  return (
    <div aria-labelledby={headingId} role="group" className="rounded-xl border border-gray-200 bg-white p-4">
      <h3 id={headingId} className="font-semibold">
        {type.name} · {formatDateTime(type.slotStart)}
      </h3>
      <label className="mt-2 block text-sm">
        Attendee names{' '}
        <select
          value={attendeeNames}
          onChange={(e) =>
            setNames.mutate({ eventId, ticketTypeId: type.id, mode: e.target.value as AttendeeNameMode })
          }
          className="ml-2 rounded-md border border-gray-300 px-2 py-1"
        >
          {(Object.keys(NAME_LABELS) as AttendeeNameMode[]).map((m) => (
            <option key={m} value={m}>
              {NAME_LABELS[m]}
            </option>
          ))}
        </select>
      </label>
      <ul className="mt-3 space-y-2 text-sm">
        {questions.map((q) =>
          editing !== 'new' && editing?.id === q.id ? (
            <li key={q.id}>
              <QuestionForm
                eventId={eventId}
                ticketTypeId={type.id}
                question={q}
                onDone={() => setEditing(null)}
              />
            </li>
          ) : (
            <li key={q.id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                <strong>{q.label}</strong> · {KIND_LABELS[q.kind]}
                {q.kind === 'choice' ? ` (${q.options.join(', ')})` : ''} · {SCOPE_LABELS[q.scope]}
                {q.required ? ' · required' : ''}
              </span>
              <span className="flex gap-2">
                <button
                  type="button"
                  onClick={() => setEditing(q)}
                  className="rounded-md border border-gray-300 px-3 py-1 font-semibold"
                >
                  Edit
                </button>
                <button
                  type="button"
                  aria-label={`Remove question ${q.label}`}
                  onClick={() => remove.mutate({ eventId, questionId: q.id })}
                  className="rounded-md border border-red-300 px-3 py-1 font-semibold text-red-800"
                >
                  Remove
                </button>
              </span>
            </li>
          ),
        )}
      </ul>
      {editing === 'new' ? (
        <QuestionForm eventId={eventId} ticketTypeId={type.id} onDone={() => setEditing(null)} />
      ) : (
        <button
          type="button"
          onClick={() => setEditing('new')}
          className="mt-3 rounded-md border border-gray-300 px-3 py-1 text-sm font-semibold"
        >
          Add a question
        </button>
      )}
    </div>
  );
}

function QuestionForm({
  eventId,
  ticketTypeId,
  question,
  onDone,
}: {
  eventId: string;
  ticketTypeId: string;
  question?: TicketQuestion;
  onDone: () => void;
}) {
  const utils = trpc.useUtils();
  const done = async () => {
    await utils.console.ticketQuestions.invalidate({ eventId });
    onDone();
  };
  const create = trpc.console.createQuestion.useMutation({ onSuccess: done });
  const update = trpc.console.updateQuestion.useMutation({ onSuccess: done });
  const [label, setLabel] = useState(question?.label ?? '');
  const [kind, setKind] = useState<QuestionKind>(question?.kind ?? 'text');
  const [options, setOptions] = useState((question?.options ?? []).join('\n'));
  const [required, setRequired] = useState(question?.required ?? false);
  const [scope, setScope] = useState<QuestionScope>(question?.scope ?? 'attendee');
  const [problem, setProblem] = useState<string | null>(null);
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = questionFieldsSchema.safeParse({
      label,
      kind,
      options: options
        .split('\n')
        .map((o) => o.trim())
        .filter(Boolean),
      required,
      scope,
    });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? null);
    setProblem(null);
    const onError = (err: unknown) => setProblem(messageOf(err));
    if (question) update.mutate({ eventId, questionId: question.id, question: parsed.data }, { onError });
    else create.mutate({ eventId, ticketTypeId, question: parsed.data }, { onError });
  };
  const idBase = `${ticketTypeId}-${question?.id ?? 'new'}`;
  return (
    <form onSubmit={save} className="mt-2 space-y-2 rounded-lg border border-gray-200 p-3 text-sm">
      <label className="block" htmlFor={`${idBase}-label`}>
        Question
      </label>
      <input
        id={`${idBase}-label`}
        value={label}
        onChange={(e) => setLabel(e.target.value)}
        className="w-full rounded-md border border-gray-300 px-2 py-1"
      />
      <div className="flex flex-wrap gap-3">
        <label>
          Kind{' '}
          <select
            value={kind}
            onChange={(e) => setKind(e.target.value as QuestionKind)}
            className="rounded-md border px-2 py-1"
          >
            {(Object.keys(KIND_LABELS) as QuestionKind[]).map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Asked{' '}
          <select
            value={scope}
            onChange={(e) => setScope(e.target.value as QuestionScope)}
            className="rounded-md border px-2 py-1"
          >
            {(Object.keys(SCOPE_LABELS) as QuestionScope[]).map((s) => (
              <option key={s} value={s}>
                {SCOPE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} />{' '}
          Required
        </label>
      </div>
      {kind === 'choice' && (
        <>
          <label className="block" htmlFor={`${idBase}-options`}>
            Options, one per line
          </label>
          <textarea
            id={`${idBase}-options`}
            value={options}
            rows={3}
            onChange={(e) => setOptions(e.target.value)}
            className="w-full rounded-md border border-gray-300 px-2 py-1"
          />
        </>
      )}
      {problem && (
        <p role="alert" className="text-red-700">
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={create.isPending || update.isPending}
          className="rounded-md bg-brand-600 px-3 py-1 font-semibold text-white"
        >
          Save question
        </button>
        <button type="button" onClick={onDone} className="rounded-md border border-gray-300 px-3 py-1">
          Cancel
        </button>
      </div>
    </form>
  );
}
