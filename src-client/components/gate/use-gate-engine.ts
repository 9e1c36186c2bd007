import { useEffect, useState, useSyncExternalStore } from 'react';
import { createGateApi } from '../../gate/gate-api.ts';
import { GateEngine } from '../../gate/gate-engine.ts';
import { deviceId, type GateSettings } from '../../gate/gate-settings.ts';
import { GateStore } from '../../gate/gate-store.ts';
import { getDetector } from '../../gate/scanner.ts';

/**
 * The slot's gate engine: opened on the device's store with the ticket list downloaded, kept in step with
 * the server while the screen is open, and its state read as React state.
 */
export function useGateEngine(settings: GateSettings) {
  const [engine, setEngine] = useState<GateEngine | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [decoder, setDecoder] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setInterval> | undefined;
    let created: GateEngine | null = null;
    const onOnline = () => void created?.sync();
    void GateStore.open()
      .then(async (store) => {
        const e = new GateEngine(store, createGateApi(), { ...settings, deviceId: deviceId() });
        created = e;
        await e.start();
        if (!alive) return;
        setEngine(e);
        // The QR decoder (and its .wasm) loads now, while the network is there.
        void getDetector().then(
          () => setDecoder('ready'),
          () => setDecoder('failed'),
        );
        // Others' admissions and the counters, every 3 s (and at once when the network returns).
        timer = setInterval(() => void e.sync(), 3000);
        window.addEventListener('online', onOnline);
      })
      .catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)));
    return () => {
      alive = false;
      clearInterval(timer);
      window.removeEventListener('online', onOnline);
    };
  }, [settings]);
  const state = useSyncExternalStore(
    (l) => engine?.subscribe(l) ?? (() => {}),
    () => engine?.state ?? null,
  );
  return { engine, state, failed, decoder };
}
