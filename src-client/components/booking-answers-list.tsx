import { attendeeLabel } from '../../shared/question-schemas.ts';

/** A booking's attendee names and answers as the server sends them (services/questions/booking-answers.ts). */
export interface AnswersView {
  attendees: {
    ticketTypeId: string;
    ticketTypeName: string;
    position: number;
    name: string;
    cancelled: boolean;
  }[];
  answers: { questionId: string; label: string; ticketTypeName: string; position: number; value: string }[];
}

/**
 * Attendee names, then answers, each named by its ticket ("Gold, ticket 2") or its type for a
 * per-booking answer: the organiser's booking page and the gate's look-up show the same list (issue 40).
 */
export function BookingAnswersList({ answers }: { answers: AnswersView }) {
  if (answers.attendees.length === 0 && answers.answers.length === 0) {
    return <p className="text-sm text-gray-600">No attendee names or answers were given.</p>;
  }
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {answers.attendees.map((a) => (
        <div key={`n-${a.ticketTypeId}-${a.position}`} className="contents">
          <dt className="text-gray-600">{attendeeLabel(a.ticketTypeName, a.position)}</dt>
          <dd className="font-semibold text-gray-900">
            {a.name}
            {/* A part refund cancelled this person's own ticket: the name stays, the ticket does not. */}
            {a.cancelled && <span className="font-normal text-gray-700"> · ticket cancelled</span>}
          </dd>
        </div>
      ))}
      {answers.answers.map((a) => (
        <div key={`a-${a.questionId}-${a.position}`} className="contents">
          <dt className="text-gray-600">
            {a.label} ({attendeeLabel(a.ticketTypeName, a.position)})
          </dt>
          <dd className="text-gray-900">{a.value}</dd>
        </div>
      ))}
    </dl>
  );
}
