import { useState } from 'react';
import { formatInIndia } from '../../../shared/dates.ts';
import type { GateEngine } from '../../gate/gate-engine.ts';
import type { GateSettings } from '../../gate/gate-settings.ts';
import { trpc } from '../../lib/trpc.ts';
import { big } from './gate-buttons.ts';
import { undoFailure } from './undo-failure.ts';
import { UndoReason, undoReasonProblem } from './undo-reason.tsx';

/**
 * One ticket's admissions, from the server (issue 35): staff undo a chosen one, with a reason that is
 * logged with who and when, even after the device reloaded. Online only: the server decides.
 */
export function TicketHistory({
  settings,
  engine,
  ticket,
  onUndone,
  onBack,
}: {
  settings: GateSettings;
  engine: GateEngine;
  ticket: { id: string; name: string };
  onUndone: () => void;
  onBack: () => void;
}) {
  const history = trpc.gate.history.useQuery(
    { eventId: settings.eventId, bookingId: ticket.id },
    { retry: false, enabled: engine.state.online },
  );
  const [undoing, setUndoing] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const offline = !engine.state.online || (history.isError && !history.error.data);
  const undo = (scanId: string) => {
    setPending(true);
    setError(null);
    engine
      .undo(scanId, reason)
      .then(
        () => {
          setUndoing(null);
          setReason('');
          onUndone();
          return history.refetch();
        },
        (e: unknown) => setError(undoFailure(e)),
      )
      .finally(() => setPending(false));
  };
  return (
    <div
      role="dialog"
      aria-label={`Check-ins of ${ticket.name}`}
      className="absolute inset-0 z-30 flex flex-col bg-gray-950 p-4"
    >
      <h2 className="text-xl font-bold">Check-ins of {ticket.name}</h2>
      {offline ? (
        <p role="alert" className="mt-3 text-amber-300">
          Undo needs the network: try again when online
        </p>
      ) : history.isPending ? (
        <p role="status" className="mt-3">
          Loading the check-ins…
        </p>
      ) : history.isError ? (
        <p role="alert" className="mt-3 text-red-300">
          {history.error.message}
        </p>
      ) : (
        <ul className="mt-3 flex-1 space-y-2 overflow-auto">
          {history.data.length === 0 && <li className="text-white/70">No admission at the gate yet.</li>}
          {history.data.map((a) => (
            <li key={a.scanId} className="rounded-xl bg-white/10 p-3">
              <p>
                <span className="font-semibold">
                  {a.persons} {a.persons === 1 ? 'person' : 'people'}
                </span>{' '}
                at {a.gate}, {formatInIndia(a.scannedAt, 'HH:mm')}, {a.staffName ?? 'unknown staff'}
                {a.offline ? ' (offline)' : ''}
              </p>
              {a.undone ? (
                <p className="text-sm text-white/80">
                  Undone {formatInIndia(a.undone.at, 'HH:mm')} by {a.undone.staffName ?? 'unknown staff'}:{' '}
                  {a.undone.reason}
                </p>
              ) : undoing === a.scanId ? (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    const problem = undoReasonProblem(reason);
                    if (problem) setError(problem);
                    else undo(a.scanId);
                  }}
                >
                  <UndoReason value={reason} onChange={setReason} error={error} autoFocus />
                  <button
                    type="submit"
                    disabled={pending}
                    className={`${big} mt-2 w-full bg-amber-500 text-black disabled:opacity-50`}
                  >
                    Undo this admission
                  </button>
                </form>
              ) : (
                <button
                  type="button"
                  className="mt-2 min-h-12 rounded-lg bg-amber-500 px-4 font-semibold text-black"
                  onClick={() => {
                    setUndoing(a.scanId);
                    setError(null);
                  }}
                >
                  Undo…
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className={`${big} mt-2 bg-white/15`} onClick={onBack}>
        Back
      </button>
    </div>
  );
}
