import { formatInIndia } from '../../../shared/dates.ts';
import type { GateEngine } from '../../gate/gate-engine.ts';
import { big } from './gate-buttons.ts';

/** Who came in beyond their tickets, where and when, with the other admissions of the same ticket. */
export function DoubleEntries({
  entries,
  onClose,
}: {
  entries: NonNullable<GateEngine['state']['doubleEntries']>;
  onClose: () => void;
}) {
  return (
    <div
      role="dialog"
      aria-label="Double entries"
      className="absolute inset-0 z-30 flex flex-col bg-gray-950 p-4"
    >
      <h2 className="text-xl font-bold">Double entries</h2>
      <ul className="mt-3 flex-1 space-y-3 overflow-auto text-sm">
        {entries.map((d) => (
          <li key={d.scanId} className="rounded-xl bg-red-900/60 p-3">
            <p className="font-semibold">
              {d.holderName} ({d.bookingId}): {d.excess} extra
            </p>
            <p>
              {d.gate}, {d.staffName ?? 'unknown staff'}, {formatInIndia(d.scannedAt, 'HH:mm')}
            </p>
            {d.others.map((o) => (
              <p key={`${o.gate}-${o.scannedAt}`} className="text-white/80">
                also {o.persons} at {o.gate}, {o.staffName ?? 'unknown staff'},{' '}
                {formatInIndia(o.scannedAt, 'HH:mm')}
                {o.offline ? ' (offline)' : ''}
              </p>
            ))}
          </li>
        ))}
      </ul>
      <button type="button" className={`${big} mt-2 bg-white/15`} onClick={onClose}>
        Close
      </button>
    </div>
  );
}
