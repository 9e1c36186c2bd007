import { useState } from 'react';
import type { GateEngine } from '../../gate/gate-engine.ts';
import { big } from './gate-buttons.ts';
import { undoFailure } from './undo-failure.ts';
import { UndoReason, undoReasonProblem } from './undo-reason.tsx';
import type { Admitted } from './use-scanner.ts';

/** Undo the last admission on this device at once, with a reason that is logged. */
export function UndoLast({
  admit,
  engine,
  onDone,
  onClose,
}: {
  admit: Admitted;
  engine: GateEngine;
  onDone: () => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('Scanned the wrong ticket');
  const [error, setError] = useState<string | null>(null);
  return (
    <div
      role="dialog"
      aria-label="Undo the last admission"
      className="absolute inset-0 z-30 flex flex-col justify-end bg-gray-950 p-4"
    >
      <p className="text-xl font-bold">
        Undo: {admit.ticket.name}, {admit.persons} {admit.persons === 1 ? 'person' : 'people'}
      </p>
      <UndoReason value={reason} onChange={setReason} error={error} />
      <button
        type="button"
        className={`${big} mt-4 w-full bg-amber-500 text-black`}
        onClick={() => {
          const problem = undoReasonProblem(reason);
          if (problem) setError(problem);
          else engine.undo(admit.scanId, reason).then(onDone, (e: unknown) => setError(undoFailure(e)));
        }}
      >
        Undo admission
      </button>
      <button type="button" className={`${big} mt-2 w-full bg-white/15`} onClick={onClose}>
        Keep it
      </button>
    </div>
  );
}
