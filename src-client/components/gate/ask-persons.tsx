import { useState } from 'react';
import type { Shown } from '../../gate/gate-engine.ts';
import { big } from './gate-buttons.ts';

/** A ticket for several people with entries left: staff say how many enter now (the rest may come later). */
export function AskPersons({
  shown,
  onChoose,
  onCancel,
}: {
  shown: Extract<Shown, { kind: 'ask' }>;
  onChoose: (n: number) => void;
  onCancel: () => void;
}) {
  const [n, setN] = useState(shown.remaining);
  return (
    <div
      role="dialog"
      aria-label="How many enter now?"
      className="absolute inset-0 z-30 flex flex-col justify-end bg-gray-950 p-4"
    >
      <p className="text-xl font-bold">
        {shown.ticket.name} · {shown.ticket.type}
      </p>
      <p className="mt-1">
        {shown.remaining} of {shown.ticket.allowed} entries left. How many enter now?
      </p>
      <div className="mt-4 flex items-center justify-center gap-4">
        <button
          type="button"
          className="min-h-14 w-20 rounded-xl bg-white/20 text-4xl font-bold"
          aria-label="One fewer"
          onClick={() => setN((v) => Math.max(1, v - 1))}
        >
          −
        </button>
        <span className="w-16 text-center text-5xl font-black tabular-nums" data-testid="gate-persons">
          {n}
        </span>
        <button
          type="button"
          className="min-h-14 w-20 rounded-xl bg-white/20 text-4xl font-bold"
          aria-label="One more"
          onClick={() => setN((v) => Math.min(shown.remaining, v + 1))}
        >
          +
        </button>
      </div>
      <button type="button" className={`${big} mt-4 w-full bg-emerald-600`} onClick={() => onChoose(n)}>
        Admit {n}
      </button>
      <button type="button" className={`${big} mt-2 w-full bg-white/15`} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
