import { useState } from 'react';
import { formatDateTime } from '../../shared/dates.ts';
import { ATTENDEE_NAME_MAX, attendeeLabel, attendeeNameSchema } from '../../shared/question-schemas.ts';
import { serverRefusalOf } from '../lib/server-field-errors.ts';
import { trpc } from '../lib/trpc.ts';

/**
 * On an upcoming booking (My Bookings): each ticket's attendee name, which the holder can correct
 * until 24 hours before the show (issue 40, ADR 0040). The server decides the cut-off and records
 * each change in the order history. Nothing is shown for a booking whose tickets ask no names.
 */
export function AttendeeNamesSection({ bookingId }: { bookingId: string }) {
  const mine = trpc.questions.myAttendees.useQuery({ bookingId });
  if (!mine.data || mine.data.attendees.length === 0) return null;
  const { attendees, editable, editableUntil } = mine.data;
  return (
    <div className="mt-3 border-t border-gray-100 pt-3 text-sm">
      <h3 className="font-semibold text-gray-900">Attendees</h3>
      <ul className="mt-1 space-y-2">
        {attendees.map((a) => (
          <AttendeeRow
            key={`${a.ticketTypeId}-${a.position}`}
            bookingId={bookingId}
            attendee={a}
            editable={editable}
          />
        ))}
      </ul>
      <p className="mt-1 text-gray-600">
        {editable
          ? `Names can be changed until ${formatDateTime(editableUntil)}.`
          : 'Names can no longer be changed: the show starts within 24 hours.'}
      </p>
    </div>
  );
}

function AttendeeRow({
  bookingId,
  attendee,
  editable,
}: {
  bookingId: string;
  attendee: { ticketTypeId: string; ticketTypeName: string; position: number; name: string };
  editable: boolean;
}) {
  const utils = trpc.useUtils();
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const correct = trpc.questions.correctAttendeeName.useMutation({
    onSuccess: async () => {
      setDraft(null);
      await utils.questions.myAttendees.invalidate({ bookingId });
    },
    // The server's message for the name (its schema is the form's), else its refusal (the cut-off passed).
    onError: (err) => {
      const refusal = serverRefusalOf(err, { fields: ['name'] });
      setProblem(refusal.fields.name ?? refusal.form);
    },
  });
  const label = attendeeLabel(attendee.ticketTypeName, attendee.position);
  const fieldId = `attendee-${attendee.ticketTypeId}-${attendee.position}`;
  if (draft === null) {
    return (
      <li className="flex items-center justify-between gap-2">
        <span>
          <span className="text-gray-600">{label}: </span>
          <span className="font-semibold">{attendee.name || 'No name given'}</span>
        </span>
        {editable && (
          <button
            type="button"
            aria-label={`Change the name of ${label}`}
            onClick={() => {
              setProblem(null);
              setDraft(attendee.name);
            }}
            className="rounded-md border border-gray-300 px-3 py-1 font-semibold hover:bg-gray-50"
          >
            Change
          </button>
        )}
      </li>
    );
  }
  const save = () => {
    const parsed = attendeeNameSchema.safeParse(draft);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? null);
    correct.mutate({
      bookingId,
      ticketTypeId: attendee.ticketTypeId,
      position: attendee.position,
      name: parsed.data,
    });
  };
  return (
    <li>
      <label className="block text-gray-600" htmlFor={fieldId}>
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={fieldId}
          value={draft}
          maxLength={ATTENDEE_NAME_MAX}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${fieldId}-error` : undefined}
          onChange={(e) => setDraft(e.target.value)}
          className="min-w-0 flex-1 rounded-md border border-gray-300 px-3 py-1"
        />
        <button
          type="button"
          disabled={correct.isPending}
          onClick={save}
          className="rounded-md bg-brand-600 px-3 py-1 font-semibold text-white hover:bg-brand-700"
        >
          Save
        </button>
        <button
          type="button"
          onClick={() => setDraft(null)}
          className="rounded-md border border-gray-300 px-3 py-1"
        >
          Cancel
        </button>
      </div>
      {problem && (
        <p id={`${fieldId}-error`} role="alert" className="mt-1 text-red-700">
          {problem}
        </p>
      )}
    </li>
  );
}
