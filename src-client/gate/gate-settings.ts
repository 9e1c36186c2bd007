/** What the device remembers between visits: the gate's name, the last event and slot, its own id. */
export interface GateSettings {
  eventId: string;
  slotId: string;
  gate: string;
  /** Shown while offline, when the event list cannot be fetched. */
  eventName: string;
  slotStart: string;
}

const KEY = 'jalsa-gate-settings';
const DEVICE = 'jalsa-gate-device';

export function loadGateSettings(): Partial<GateSettings> {
  try {
    return JSON.parse(window.localStorage.getItem(KEY) ?? '{}') as Partial<GateSettings>;
  } catch {
    return {};
  }
}

export function saveGateSettings(settings: GateSettings) {
  window.localStorage.setItem(KEY, JSON.stringify(settings));
}

/** A random id per device (scan ids are unique anyway; this says which phone made them). */
export function deviceId(): string {
  let id = window.localStorage.getItem(DEVICE);
  if (!id) {
    id = `dev-${crypto.randomUUID().slice(0, 12)}`;
    window.localStorage.setItem(DEVICE, id);
  }
  return id;
}
