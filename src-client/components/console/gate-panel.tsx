import { Link } from '@tanstack/react-router';
import { formatInIndia } from '../../../shared/dates.ts';
import { slotLabel } from '../../../shared/gate-schemas.ts';
import { trpc } from '../../lib/trpc.ts';

/**
 * The organiser's live gate panel (docs/decisions/0022): admitted / expected per slot and per gate,
 * refreshed every 5 seconds, and the double entries (the worst and the newest) with who, where and when. For the console's event
 * dashboard to mount: `<GatePanel eventId={…} />` (any role on the event may see it).
 */
export function GatePanel({ eventId }: { eventId: string }) {
  const dashboard = trpc.gate.dashboard.useQuery({ eventId }, { refetchInterval: 5000 });
  if (dashboard.isPending) return <p className="text-sm text-gray-600">Loading the gates…</p>;
  if (dashboard.isError) return <p role="alert">The gates could not be loaded: {dashboard.error.message}</p>;
  const { slots, doubleEntries, doubleEntryTotals } = dashboard.data;
  const total = doubleEntryTotals.entries;
  return (
    <section aria-labelledby="gate-panel-heading" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="gate-panel-heading" className="text-lg font-bold">
          Gates
        </h2>
        <Link to="/gate" className="font-semibold text-brand-700 underline">
          Open the gate scanner
        </Link>
      </div>
      <ul className="space-y-3">
        {slots.map((slot) => (
          <li key={slot.id} className="rounded-lg border p-3">
            <p className="font-semibold">
              {slotLabel(slot.start)}:{' '}
              <span className="tabular-nums">
                {slot.admitted} / {slot.expected}
              </span>{' '}
              admitted
            </p>
            {slot.gates.length > 0 && (
              <p className="text-sm text-gray-700">
                {slot.gates
                  .map((g) => `${g.gate} ${g.admitted}${g.excess ? ` (+${g.excess} double)` : ''}`)
                  .join(' · ')}
              </p>
            )}
          </li>
        ))}
      </ul>
      {total > 0 && (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">
            {total} double entr{total === 1 ? 'y' : 'ies'}, {doubleEntryTotals.excess}{' '}
            {doubleEntryTotals.excess === 1 ? 'person' : 'people'} beyond their tickets
          </p>
          {doubleEntries.length < total && (
            // Issue 35: the list is the worst and the newest, so nothing large or recent hides behind old ones.
            <p>Showing the {doubleEntries.length} with the most people and the newest.</p>
          )}
          <ul className="mt-2 space-y-2">
            {doubleEntries.map((d) => (
              <li key={d.scanId}>
                {d.holderName}
                {d.bookingId ? ` (${d.bookingId})` : ''}: {d.excess} extra at {d.gate}, device {d.deviceId},{' '}
                {d.staffName ?? 'unknown staff'}, {formatInIndia(d.scannedAt, 'dd MMM, HH:mm')}
                {d.others.map((o) => (
                  <span key={`${o.gate}-${o.scannedAt}`} className="block text-red-800">
                    also {o.persons} at {o.gate}, {o.staffName ?? 'unknown staff'},{' '}
                    {formatInIndia(o.scannedAt, 'dd MMM, HH:mm')}
                    {o.offline ? ' (offline)' : ''}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
