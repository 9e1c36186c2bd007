import { useMemo, useState } from 'react';
import { slotLabel } from '../../../shared/gate-schemas.ts';
import { type GateSettings, loadGateSettings, saveGateSettings } from '../../gate/gate-settings.ts';
import { trpc } from '../../lib/trpc.ts';
import { big } from './gate-buttons.ts';
import { OfflineSlots } from './offline-slots.tsx';

/** Pick the event, the slot and the gate's name (remembered on the device). */
export function GateSetup({ onStart }: { onStart: (s: GateSettings) => void }) {
  const events = trpc.gate.events.useQuery(undefined, { retry: 1 });
  const saved = useMemo(loadGateSettings, []);
  const [eventId, setEventId] = useState(saved.eventId ?? '');
  const [slotId, setSlotId] = useState(saved.slotId ?? '');
  const [gate, setGate] = useState(saved.gate ?? '');
  const list = events.data ?? [];
  const event = list.find((e) => e.id === eventId) ?? (list.length === 1 ? list[0] : undefined);
  const slot =
    event?.slots.find((s) => s.id === slotId) ?? (event?.slots.length === 1 ? event.slots[0] : undefined);

  const start = (s: GateSettings) => {
    saveGateSettings(s);
    onStart(s);
  };

  return (
    <section className="mx-auto max-w-md px-4 py-6">
      <h1 className="text-2xl font-bold">Gate</h1>
      {events.isPending ? (
        <p role="status" className="mt-6 text-gray-600">
          Loading your events…
        </p>
      ) : events.isError ? (
        <OfflineSlots saved={saved} onStart={start} />
      ) : list.length === 0 ? (
        <p role="alert" className="mt-6 text-gray-700">
          You are not on any event's gate team. Ask the organiser to add you as gate staff.
        </p>
      ) : (
        <form
          className="mt-6 space-y-5"
          onSubmit={(e) => {
            e.preventDefault();
            if (event && slot && gate.trim())
              start({
                eventId: event.id,
                slotId: slot.id,
                gate: gate.trim(),
                eventName: event.name,
                slotStart: slot.start,
              });
          }}
        >
          <div>
            <label htmlFor="gate-event" className="text-sm font-semibold">
              Event
            </label>
            <select
              id="gate-event"
              className="mt-1 block min-h-14 w-full rounded-xl border px-3 text-lg"
              value={event?.id ?? ''}
              onChange={(e) => setEventId(e.target.value)}
            >
              <option value="">Choose the event</option>
              {list.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name} ({e.city})
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="gate-slot" className="text-sm font-semibold">
              Slot
            </label>
            <select
              id="gate-slot"
              className="mt-1 block min-h-14 w-full rounded-xl border px-3 text-lg"
              value={slot?.id ?? ''}
              onChange={(e) => setSlotId(e.target.value)}
              disabled={!event}
            >
              <option value="">Choose the slot</option>
              {event?.slots.map((s) => (
                <option key={s.id} value={s.id}>
                  {slotLabel(s.start)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="gate-name" className="text-sm font-semibold">
              Gate name
            </label>
            <input
              id="gate-name"
              className="mt-1 block min-h-14 w-full rounded-xl border px-3 text-lg"
              value={gate}
              maxLength={60}
              placeholder="e.g. North gate"
              onChange={(e) => setGate(e.target.value)}
            />
          </div>
          <button
            type="submit"
            disabled={!event || !slot || !gate.trim()}
            className={`${big} w-full bg-emerald-700 text-white disabled:bg-gray-300`}
          >
            Start scanning
          </button>
        </form>
      )}
    </section>
  );
}
