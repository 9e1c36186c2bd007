import { trpc } from '../lib/trpc.ts';
import type { GateSettings } from './gate-settings.ts';

const big = 'min-h-14 rounded-xl px-4 text-lg font-semibold';

/**
 * "Hand over": an admitted ticket's add-ons (ADR 0041), each with a "Given" tap recorded with who and
 * when. Online, from the server (what is already given shows as such); offline, the labels the device's
 * list carries, read-only: marking given needs the network (the server must see it once, from any gate).
 */
export function GateAddOns({
  settings,
  bookingId,
  offlineLabels,
}: {
  settings: Pick<GateSettings, 'eventId' | 'gate'>;
  bookingId: string;
  offlineLabels: string[] | undefined;
}) {
  const utils = trpc.useUtils();
  const input = { eventId: settings.eventId, bookingId };
  const lines = trpc.gate.addOns.useQuery(input, { retry: false });
  const give = trpc.gate.markAddOnGiven.useMutation({
    onSuccess: () => utils.gate.addOns.invalidate(input),
  });
  if (lines.data) {
    if (lines.data.length === 0) return null;
    return (
      <section
        aria-labelledby="hand-over"
        className="mt-6 w-full max-w-sm rounded-xl bg-black/25 p-4 text-left"
      >
        <h2 id="hand-over" className="text-xl font-bold">
          Hand over
        </h2>
        <ul className="mt-2 space-y-2">
          {lines.data.map((line) => {
            const label = `${line.quantity} × ${line.name}${line.variantName ? ` (${line.variantName})` : ''}`;
            return (
              <li key={line.id} className="flex items-center justify-between gap-3">
                <span className="text-lg">{label}</span>
                {line.givenAt ? (
                  <span className="text-sm font-semibold">Given</span>
                ) : (
                  <button
                    type="button"
                    aria-label={`Given: ${label}`}
                    className={`${big} bg-white text-emerald-800`}
                    disabled={give.isPending}
                    onClick={() => give.mutate({ ...input, lineId: line.id, gate: settings.gate })}
                  >
                    Given
                  </button>
                )}
              </li>
            );
          })}
        </ul>
        {give.error && (
          <p role="alert" className="mt-2">
            Could not record it: {give.error.message}
          </p>
        )}
      </section>
    );
  }
  if (!offlineLabels?.length) return null;
  return (
    <section
      aria-labelledby="hand-over"
      className="mt-6 w-full max-w-sm rounded-xl bg-black/25 p-4 text-left"
    >
      <h2 id="hand-over" className="text-xl font-bold">
        Hand over
      </h2>
      <ul className="mt-2 list-disc pl-5 text-lg">
        {offlineLabels.map((label) => (
          <li key={label}>{label}</li>
        ))}
      </ul>
      <p className="mt-2 text-sm">Offline: mark them given when back online.</p>
    </section>
  );
}
