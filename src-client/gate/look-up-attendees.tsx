import { AdmitButton, HistoryButton } from '../components/gate/look-up-buttons.tsx';

/** One attendee's own ticket as the server's look-up lists it under its booking (ADR 0046). */
export interface LookUpAttendeeTicket {
  ticketId: string;
  name: string;
  typeName: string;
  /** "Ticket 2 of 3 · Priya", as on the buyer's ticket page. */
  label: string;
  allowed: number;
  admitted: number;
  cancelled: boolean;
}

/**
 * The attendees of a looked-up booking whose tickets each have their own QR: staff admit the person in
 * front of them by their own ticket (the gate counts it as a scan of that QR), or open its check-ins to
 * undo one. Shown under the booking's row, which then admits only what its own QR still does.
 */
export function LookUpAttendees({
  tickets,
  onPick,
  onHistory,
}: {
  tickets: readonly LookUpAttendeeTicket[];
  onPick: (ticketId: string) => void;
  onHistory: (ticket: { id: string; name: string }) => void;
}) {
  return (
    <ul aria-label="Each person’s own ticket" className="basis-full space-y-2 pl-4">
      {tickets.map((a) => (
        <li key={a.ticketId} className="flex gap-2">
          <AdmitButton ticket={a} onAdmit={() => onPick(a.ticketId)}>
            <span className="font-semibold">{a.name}</span> · {a.typeName}
            <br />
            <span className="text-sm">
              {a.label} · {a.cancelled ? 'Cancelled' : `${a.admitted} of ${a.allowed} in`}
            </span>
          </AdmitButton>
          <HistoryButton ticket={a} onOpen={() => onHistory({ id: a.ticketId, name: a.name })} />
        </li>
      ))}
    </ul>
  );
}

/** The booking row's count line: a booking whose every person has their own ticket has none of its own. */
export function bookingCountLine(r: {
  cancelled: boolean;
  allowed: number;
  admitted: number;
  ownTickets: readonly unknown[];
}): string {
  if (r.cancelled) return 'Cancelled booking';
  if (r.ownTickets.length > 0 && r.allowed === 0) return 'Each person has their own ticket:';
  return `${r.admitted} of ${r.allowed} in`;
}
