import { slotLabel } from '../../../shared/gate-schemas.ts';
import type { EngineState } from '../../gate/gate-engine.ts';
import type { GateSettings } from '../../gate/gate-settings.ts';

/** The scanner's top: which gate and slot, the network badge, the counters and the double-entry alarm. */
export function GateStatusBar({
  settings,
  state,
  offlineCopy,
  onChange,
  onShowDoubles,
}: {
  settings: GateSettings;
  state: EngineState | null;
  offlineCopy: 'pending' | 'ready' | 'none';
  onChange: () => void;
  onShowDoubles: () => void;
}) {
  const counters = state?.counters;
  return (
    <>
      <header className="flex items-center gap-2 px-3 py-2 text-sm">
        <button type="button" onClick={onChange} className="min-h-12 shrink-0 rounded-lg bg-white/15 px-3">
          ‹ {settings.gate}
        </button>
        <span className="min-w-0 flex-1 truncate">
          {settings.eventName} · {slotLabel(settings.slotStart)}
        </span>
        <span
          data-testid="gate-network"
          className={`shrink-0 whitespace-nowrap rounded-full px-2 py-1 text-xs font-bold ${state?.online === false ? 'bg-amber-400 text-black' : 'bg-emerald-800'}`}
        >
          {state?.online === false
            ? `Offline${state.queued ? ` · ${state.queued} to send` : ''}`
            : offlineCopy === 'ready'
              ? 'Online · ready offline'
              : 'Online · preparing offline'}
        </span>
      </header>
      <div data-testid="gate-counter" className="flex items-baseline gap-3 px-3 pb-2">
        <span className="shrink-0 whitespace-nowrap text-3xl font-bold tabular-nums">
          {counters ? `${counters.admitted} / ${counters.expected}` : '…'}
        </span>
        <span className="text-sm text-white/80">admitted</span>
        <span className="ml-auto truncate text-xs text-white/70">
          {counters?.gates.map((g) => `${g.gate} ${g.admitted}`).join(' · ')}
        </span>
      </div>
      {state && state.doubleEntries.length > 0 && (
        <button
          type="button"
          data-testid="gate-double-entries"
          onClick={onShowDoubles}
          className="mx-3 mb-2 min-h-12 rounded-lg bg-red-700 px-3 text-left text-sm font-semibold"
        >
          {state.doubleEntries.length} double entr{state.doubleEntries.length === 1 ? 'y' : 'ies'}: tap for
          who, where, when
        </button>
      )}
    </>
  );
}
