import {
  ANSWER_TEXT_MAX,
  ATTENDEE_NAME_MAX,
  answerKey,
  attendeeLabel,
  NO,
  nameKey,
  type TicketQuestion,
  type TicketTypeForm,
  YES,
} from '../../../shared/question-schemas.ts';
import { CheckoutCard } from './checkout-card.tsx';

/**
 * The checkout's attendee names and questions (issue 40): per ticket type of the selection, each
 * ticket's name and per-ticket questions, then the per-booking ones. Values are keyed as Proceed sends
 * them (shared/question-schemas.ts); the server checks them again with the same rules.
 */
export function AttendeeQuestions({
  forms,
  quantities,
  values,
  problems,
  onChange,
}: {
  forms: TicketTypeForm[];
  quantities: Map<string, number>;
  values: Record<string, string>;
  problems: Record<string, string>;
  onChange: (key: string, value: string) => void;
}) {
  const asked = forms.filter((f) => (quantities.get(f.ticketTypeId) ?? 0) > 0);
  if (asked.length === 0) return null;
  return (
    <CheckoutCard id="attendees-heading" title="Attendee Details">
      {asked.map((form) => {
        const quantity = quantities.get(form.ticketTypeId) ?? 0;
        const perTicket = form.questions.filter((q) => q.scope === 'attendee');
        const perBooking = form.questions.filter((q) => q.scope === 'booking');
        const showTickets = form.attendeeNames !== 'off' || perTicket.length > 0;
        return (
          <div key={form.ticketTypeId} className="mt-3 space-y-3">
            {showTickets &&
              Array.from({ length: quantity }, (_, i) => i + 1).map((position) => (
                <fieldset key={position} className="rounded-lg border border-gray-200 p-3">
                  <legend className="px-1 text-sm font-semibold">
                    {attendeeLabel(form.ticketTypeName, position)}
                  </legend>
                  {form.attendeeNames !== 'off' && (
                    <TextField
                      id={nameKey(form.ticketTypeId, position)}
                      label={`Attendee name${form.attendeeNames === 'required' ? '' : ' (optional)'}`}
                      maxLength={ATTENDEE_NAME_MAX}
                      values={values}
                      problems={problems}
                      onChange={onChange}
                    />
                  )}
                  {perTicket.map((q) => (
                    <QuestionField
                      key={q.id}
                      question={q}
                      fieldKey={answerKey(q.id, position)}
                      values={values}
                      problems={problems}
                      onChange={onChange}
                    />
                  ))}
                </fieldset>
              ))}
            {perBooking.length > 0 && (
              <fieldset className="rounded-lg border border-gray-200 p-3">
                <legend className="px-1 text-sm font-semibold">{form.ticketTypeName}</legend>
                {perBooking.map((q) => (
                  <QuestionField
                    key={q.id}
                    question={q}
                    fieldKey={answerKey(q.id, 0)}
                    values={values}
                    problems={problems}
                    onChange={onChange}
                  />
                ))}
              </fieldset>
            )}
          </div>
        );
      })}
    </CheckoutCard>
  );
}

interface FieldProps {
  values: Record<string, string>;
  problems: Record<string, string>;
  onChange: (key: string, value: string) => void;
}

function QuestionField({
  question,
  fieldKey,
  ...field
}: FieldProps & { question: TicketQuestion; fieldKey: string }) {
  const label = `${question.label}${question.required ? '' : ' (optional)'}`;
  if (question.kind === 'text') {
    return <TextField id={fieldKey} label={label} maxLength={ANSWER_TEXT_MAX} {...field} />;
  }
  const options = question.kind === 'choice' ? question.options : [YES, NO];
  const problem = field.problems[fieldKey];
  return (
    <div className="py-2">
      <label htmlFor={fieldKey} className="block text-xs font-medium uppercase tracking-wide text-gray-500">
        {label}
      </label>
      <select
        id={fieldKey}
        value={field.values[fieldKey] ?? ''}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${fieldKey}-error` : undefined}
        onChange={(e) => field.onChange(fieldKey, e.target.value)}
        className="mt-1 w-full rounded-lg border border-gray-300 px-3 py-2 text-base"
      >
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      {problem && (
        <p id={`${fieldKey}-error`} className="mt-1 text-sm text-red-700">
          {problem}
        </p>
      )}
    </div>
  );
}

function TextField({
  id,
  label,
  maxLength,
  values,
  problems,
  onChange,
}: FieldProps & { id: string; label: string; maxLength: number }) {
  const problem = problems[id];
  return (
    <div className="py-2">
      <label htmlFor={id} className="block text-xs font-medium uppercase tracking-wide text-gray-500">
        {label}
      </label>
      <input
        id={id}
        type="text"
        value={values[id] ?? ''}
        maxLength={maxLength}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
        onChange={(e) => onChange(id, e.target.value)}
        className="mt-1 w-full rounded-lg border border-gray-300 px-3 py-2 text-base"
      />
      {problem && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {problem}
        </p>
      )}
    </div>
  );
}
