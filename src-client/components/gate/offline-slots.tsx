import { useEffect, useState } from 'react';
import { slotLabel } from '../../../shared/gate-schemas.ts';
import type { GateSettings } from '../../gate/gate-settings.ts';
import { GateStore, type SlotMeta } from '../../gate/gate-store.ts';
import { big } from './gate-buttons.ts';

/**
 * No network: every slot whose ticket list this device holds, the last one used first (each was opened
 * online once: docs/operations.md).
 */
export function OfflineSlots({
  saved,
  onStart,
}: {
  saved: Partial<GateSettings>;
  onStart: (s: GateSettings) => void;
}) {
  const [slots, setSlots] = useState<SlotMeta[] | null>(null);
  const [gate, setGate] = useState(saved.gate ?? '');
  useEffect(() => {
    let alive = true;
    void GateStore.open()
      .then(async (store) => {
        const metas = await store.listSlots();
        store.close();
        return metas;
      })
      .catch(() => [])
      .then((metas) => {
        if (!alive) return;
        const last = (m: SlotMeta) => (m.slotId === saved.slotId ? 0 : 1);
        setSlots(metas.sort((a, b) => last(a) - last(b) || a.slotStart.localeCompare(b.slotStart)));
      });
    return () => {
      alive = false;
    };
  }, [saved.slotId]);
  if (!slots) return null;
  if (slots.length === 0)
    return (
      <p role="alert" className="mt-6 text-gray-700">
        No network, and no slot's ticket list is on this device yet. Open the gate online once for each slot.
      </p>
    );
  const name = gate.trim();
  return (
    <div className="mt-6 space-y-4">
      <p>No network: scan a slot whose ticket list is on this device.</p>
      <div>
        <label htmlFor="gate-name-offline" className="text-sm font-semibold">
          Gate name
        </label>
        <input
          id="gate-name-offline"
          className="mt-1 block min-h-14 w-full rounded-xl border px-3 text-lg"
          value={gate}
          maxLength={60}
          onChange={(e) => setGate(e.target.value)}
        />
      </div>
      {slots.map((m) => {
        const eventName =
          m.eventName ?? (m.eventId === saved.eventId ? saved.eventName : undefined) ?? 'Event';
        return (
          <button
            key={m.slotId}
            type="button"
            disabled={!name}
            className={`${big} w-full bg-emerald-700 py-2 text-left text-white disabled:bg-gray-300`}
            onClick={() =>
              onStart({ eventId: m.eventId, slotId: m.slotId, gate: name, eventName, slotStart: m.slotStart })
            }
          >
            Scan at {name || '…'}: {eventName}, {slotLabel(m.slotStart)}
          </button>
        );
      })}
    </div>
  );
}
