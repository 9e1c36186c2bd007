import { splitGateTicketId } from '../../../shared/ticket-token-format.ts';
import { GateAddOns } from '../../gate/gate-add-ons.tsx';
import type { Shown } from '../../gate/gate-engine.ts';
import type { GateSettings } from '../../gate/gate-settings.ts';
import { big } from './gate-buttons.ts';

/** The scan's answer over the camera: ADMIT n in green, or STOP in red with the reason, until dismissed. */
export function ResultFlash({
  shown,
  settings,
  onDismiss,
}: {
  shown: Exclude<Shown, { kind: 'ask' }>;
  settings: GateSettings;
  onDismiss: () => void;
}) {
  const admit = shown.kind === 'admit';
  return (
    <div
      role="status"
      data-testid="gate-result"
      data-outcome={shown.kind}
      className={`absolute inset-0 z-20 flex flex-col items-center justify-center p-6 text-center ${admit ? 'bg-emerald-600' : 'bg-red-700'}`}
    >
      <p className="text-6xl font-black tracking-wide">{admit ? `ADMIT ${shown.persons}` : 'STOP'}</p>
      {!admit && <p className="mt-4 text-2xl font-bold">{shown.message}</p>}
      {shown.ticket && (
        // Large text (24 px): white on the admit green is 3.8:1, enough only for large text (WCAG 1.4.3).
        <p className="mt-4 text-2xl">
          {shown.ticket.name} · {shown.ticket.type}
          <br />
          {shown.ticket.admitted} of {shown.ticket.allowed} in
        </p>
      )}
      {shown.offline && (
        <p className="mt-3 text-sm opacity-90">Decided offline: will be sent when back online</p>
      )}
      {admit && (
        <GateAddOns
          settings={settings}
          // An attendee's own ticket (ADR 0046) hands over its booking's add-ons.
          bookingId={splitGateTicketId(shown.ticket.id).bookingId}
          offlineLabels={shown.ticket.addOns}
        />
      )}
      <button type="button" className={`${big} mt-8 w-full max-w-xs bg-black/30`} onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
