import { useState } from 'react';
import type { LocalTicket } from '../../gate/decide-locally.ts';
import type { GateEngine } from '../../gate/gate-engine.ts';
import type { GateSettings } from '../../gate/gate-settings.ts';
import { bookingCountLine, LookUpAttendees } from '../../gate/look-up-attendees.tsx';
import { trpc } from '../../lib/trpc.ts';
import { attendeeLine } from './attendee-line.ts';
import { big } from './gate-buttons.ts';
import { AdmitButton, HistoryButton } from './look-up-buttons.tsx';
import { TicketHistory } from './ticket-history.tsx';

/** Find a ticket without its QR, by booking id, name or mobile: asks the server, or this device offline. */
export function LookUp({
  settings,
  engine,
  onPick,
  onUndone,
  onClose,
}: {
  settings: GateSettings;
  engine: GateEngine;
  onPick: (bookingId: string) => void;
  onUndone: (bookingId: string) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState('');
  const [history, setHistory] = useState<{ id: string; name: string } | null>(null);
  const q = query.trim();
  const remote = trpc.gate.lookUp.useQuery(
    { eventId: settings.eventId, slotId: settings.slotId, query: q },
    { enabled: q.length >= 2 && engine.state.online, retry: false },
  );
  const local: LocalTicket[] = engine.lookUpLocally(q);
  const rows = remote.data
    ? remote.data.map((r) => ({
        id: r.bookingId,
        name: r.holderName,
        type: r.typeName,
        allowed: r.allowed,
        admitted: r.admitted,
        cancelled: r.cancelled,
        phoneEnd: r.phoneEnd as string | undefined,
        attendees: attendeeLine(r.answers),
        ownTickets: r.attendeeTickets,
      }))
    : local.map((t) => ({ ...t, attendees: '', ownTickets: [] }));
  if (history)
    return (
      <TicketHistory
        settings={settings}
        engine={engine}
        ticket={history}
        onUndone={() => onUndone(history.id)}
        onBack={() => setHistory(null)}
      />
    );
  return (
    <div
      role="dialog"
      aria-label="Look up a ticket"
      className="absolute inset-0 z-30 flex flex-col bg-gray-950 p-4"
    >
      <input
        autoFocus
        aria-label="Booking id, name or mobile"
        className="min-h-14 rounded-xl bg-white px-3 text-lg text-black"
        placeholder="Booking id, name or mobile"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <ul className="mt-3 flex-1 space-y-2 overflow-auto">
        {rows.map((r) => (
          <li key={r.id} className="flex flex-wrap gap-2">
            <AdmitButton ticket={r} onAdmit={() => onPick(r.id)}>
              <span className="font-semibold">{r.name}</span> · {r.type} · {r.id}
              {r.phoneEnd ? ` · ••${r.phoneEnd}` : ''}
              {r.attendees && (
                <>
                  <br />
                  <span className="text-sm">{r.attendees}</span>
                </>
              )}
              <br />
              <span className="text-sm">{bookingCountLine(r)}</span>
            </AdmitButton>
            <HistoryButton ticket={r} onOpen={() => setHistory({ id: r.id, name: r.name })} />
            {r.ownTickets.length > 0 && (
              <LookUpAttendees tickets={r.ownTickets} onPick={onPick} onHistory={setHistory} />
            )}
          </li>
        ))}
        {q.length >= 2 && rows.length === 0 && (
          <li className="text-white/70">No ticket on this slot matches.</li>
        )}
      </ul>
      <button type="button" className={`${big} mt-2 bg-white/15`} onClick={onClose}>
        Close
      </button>
    </div>
  );
}
