import { createLazyRoute } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { formatInIndia } from '../../../shared/dates.ts';
import { slotLabel } from '../../../shared/gate-schemas.ts';
import { splitGateTicketId } from '../../../shared/ticket-token-format.ts';
import type { LocalTicket } from '../../gate/decide-locally.ts';
import { GateAddOns } from '../../gate/gate-add-ons.tsx';
import { createGateApi } from '../../gate/gate-api.ts';
import { type Code, GateEngine, type Shown, Unreachable } from '../../gate/gate-engine.ts';
import { deviceId, type GateSettings, loadGateSettings, saveGateSettings } from '../../gate/gate-settings.ts';
import { GateStore, type SlotMeta } from '../../gate/gate-store.ts';
import { installGateApp } from '../../gate/install.ts';
import { bookingCountLine, LookUpAttendees } from '../../gate/look-up-attendees.tsx';
import { codeKey, NO_HOLD, readCode, releaseCode, showCode } from '../../gate/scan-hold.ts';
import { type Camera, getDetector, openCamera, scanContinuously, signal } from '../../gate/scanner.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_gate/gate')({ component: GatePage });

const big = 'min-h-14 rounded-xl px-4 text-lg font-semibold';
/** The bottom bar's four buttons, under the thumb: a quarter of the screen each, on one line. */
const tool = 'min-h-14 whitespace-nowrap rounded-xl px-1 text-lg font-semibold';

function GatePage() {
  const [settings, setSettings] = useState<GateSettings | null>(null);
  useEffect(() => {
    installGateApp().catch((error: unknown) => {
      // Without a service worker the gate still works online and while the page stays open.
      console.warn('The gate could not install its offline copy', error);
    });
  }, []);
  if (settings) return <ScanScreen settings={settings} onChange={() => setSettings(null)} />;
  return <GateSetup onStart={setSettings} />;
}

/** Pick the event, the slot and the gate's name (remembered on the device). */
function GateSetup({ onStart }: { onStart: (s: GateSettings) => void }) {
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

/**
 * No network: every slot whose ticket list this device holds, the last one used first (each was opened
 * online once: docs/operations.md).
 */
function OfflineSlots({
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

function useEngine(settings: GateSettings) {
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

/** The full-screen scanner: camera, result flash, counters, look-up and undo. */
function ScanScreen({ settings, onChange }: { settings: GateSettings; onChange: () => void }) {
  const { engine, state, failed, decoder } = useEngine(settings);
  const [offlineCopy, setOfflineCopy] = useState<'pending' | 'ready' | 'none'>('pending');
  useEffect(() => {
    installGateApp().then(
      (ok) => setOfflineCopy(ok ? 'ready' : 'none'),
      () => setOfflineCopy('none'),
    );
  }, []);
  const video = useRef<HTMLVideoElement>(null);
  const [facing, setFacing] = useState<'environment' | 'user'>('environment');
  const [cameraTry, setCameraTry] = useState(0);
  const [camera, setCamera] = useState<Camera | null>(null);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [torch, setTorch] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [lastAdmit, setLastAdmit] = useState<Extract<Shown, { kind: 'admit' }> | null>(null);
  const [panel, setPanel] = useState<'none' | 'lookup' | 'undo' | 'doubles'>('none');
  const busy = useRef(false);
  const paused = useRef(false);
  paused.current = shown?.kind === 'ask' || panel !== 'none';
  // Which camera reads are acted on: the code on screen is not read again (scan-hold.ts).
  const hold = useRef(NO_HOLD);
  const release = (key?: string) => {
    hold.current = releaseCode(hold.current, performance.now(), key);
  };
  const closePanel = () => {
    setPanel('none');
    // The camera was paused: the clock for "taken away" starts now, and a result still shown stays held.
    hold.current = { ...hold.current, seenAt: performance.now() };
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: cameraTry re-opens the camera after a refusal
  useEffect(() => {
    let cam: Camera | null = null;
    let alive = true;
    openCamera(facing)
      .then((c) => {
        if (!alive) return c.stop();
        cam = c;
        setCamera(c);
        setCameraError(null);
        if (video.current) {
          video.current.srcObject = c.stream;
          void video.current.play();
        }
      })
      .catch(() => setCameraError('The camera could not be opened. Allow the camera, or use Look up.'));
    return () => {
      alive = false;
      cam?.stop();
    };
  }, [facing, cameraTry]);

  // A result stays until staff dismiss it or a different code is read (issue 35).
  const show = (s: Shown) => {
    setShown(s);
    if (s.kind === 'admit') setLastAdmit(s);
    if (s.kind !== 'ask') signal(s.kind === 'admit' ? 'admit' : 'refuse');
  };
  const dismiss = () => {
    setShown(null);
    release();
  };

  const run = async (code: Code, persons?: number, scanId?: string) => {
    if (!engine || busy.current) return;
    busy.current = true;
    try {
      show(await engine.scan(code, persons, scanId));
    } catch (error) {
      show({
        kind: 'refuse',
        scanId: '',
        message: error instanceof Error ? error.message : 'Could not check this ticket',
        ticket: null,
        offline: false,
      });
    } finally {
      busy.current = false;
    }
  };

  // One scanning loop per engine (its repeat filter must outlive re-renders); it calls the latest `run`.
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    if (!engine || !video.current) return;
    return scanContinuously(
      video.current,
      (text) => {
        const read = readCode(hold.current, codeKey({ token: text }), performance.now());
        hold.current = read.hold;
        if (read.scan) void runRef.current({ token: text });
      },
      { paused: () => paused.current || busy.current },
    );
  }, [engine]);

  const counters = state?.counters;
  return (
    <div
      className="fixed inset-0 z-50 flex flex-col bg-black text-white"
      data-decoder={decoder}
      data-offline-copy={offlineCopy}
    >
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
          onClick={() => setPanel('doubles')}
          className="mx-3 mb-2 min-h-12 rounded-lg bg-red-700 px-3 text-left text-sm font-semibold"
        >
          {state.doubleEntries.length} double entr{state.doubleEntries.length === 1 ? 'y' : 'ies'}: tap for
          who, where, when
        </button>
      )}
      <div className="relative flex-1 overflow-hidden">
        <video ref={video} playsInline muted className="h-full w-full object-cover" />
        {!engine && !failed && (
          <p className="absolute inset-x-0 top-1/3 text-center">Downloading the ticket list…</p>
        )}
        {failed && (
          <p role="alert" className="absolute inset-x-0 top-1/3 text-center">
            {failed}
          </p>
        )}
        {cameraError && (
          <div role="alert" className="absolute inset-x-4 top-4 z-10 rounded-lg bg-black/80 p-3">
            <p>{cameraError}</p>
            <button
              type="button"
              className={`${big} mt-2 w-full bg-white/20`}
              onClick={() => setCameraTry((n) => n + 1)}
            >
              Try the camera again
            </button>
          </div>
        )}
        <div className="pointer-events-none absolute inset-[15%] rounded-3xl border-4 border-white/60" />
        {shown && shown.kind !== 'ask' && (
          <ResultFlash shown={shown} settings={settings} onDismiss={dismiss} />
        )}
        {shown?.kind === 'ask' && (
          <AskPersons
            shown={shown}
            onChoose={(n) => {
              setShown(null);
              // Still this code's result on screen: a re-read while the answer comes is not a new scan.
              hold.current = showCode(codeKey(shown.code), performance.now());
              void run(shown.code, n, shown.scanId);
            }}
            onCancel={dismiss}
          />
        )}
        {panel === 'lookup' && engine && (
          <LookUp
            settings={settings}
            engine={engine}
            onPick={(bookingId) => {
              setPanel('none');
              hold.current = showCode(codeKey({ bookingId }), performance.now());
              void run({ bookingId });
            }}
            onUndone={(bookingId) => {
              // The undone ticket's QR, if still in view, is not read again until taken away.
              if (lastAdmit?.ticket.id === bookingId) setLastAdmit(null);
              if (shown && shown.kind !== 'ask' && shown.ticket?.id === bookingId) setShown(null);
              release(codeKey({ bookingId }));
            }}
            onClose={closePanel}
          />
        )}
        {panel === 'undo' && engine && lastAdmit && (
          <UndoLast
            admit={lastAdmit}
            engine={engine}
            onDone={() => {
              setLastAdmit(null);
              if (shown?.kind === 'admit' && shown.scanId === lastAdmit.scanId) setShown(null);
              setPanel('none');
              // The undone ticket's QR, if still in view, is not read again until taken away.
              release(codeKey({ bookingId: lastAdmit.ticket.id }));
            }}
            onClose={closePanel}
          />
        )}
        {panel === 'doubles' && state && <DoubleEntries entries={state.doubleEntries} onClose={closePanel} />}
      </div>
      <nav className="grid grid-cols-4 gap-2 p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
        <button type="button" className={`${tool} bg-white/15`} onClick={() => setPanel('lookup')}>
          Look up
        </button>
        <button
          type="button"
          className={`${tool} bg-white/15 disabled:opacity-40`}
          disabled={!lastAdmit}
          onClick={() => setPanel('undo')}
        >
          Undo
        </button>
        <button
          type="button"
          className={`${tool} bg-white/15`}
          onClick={() => setFacing((f) => (f === 'environment' ? 'user' : 'environment'))}
          aria-label="Switch camera"
        >
          {/* The visible word is in the name (WCAG 2.5.3, Label in Name): a voice user says what they see. */}
          <span aria-hidden="true">⇄</span> Camera
        </button>
        <button
          type="button"
          className={`${tool} bg-white/15 disabled:opacity-40`}
          disabled={!camera?.torch}
          aria-pressed={torch}
          onClick={() => {
            void camera?.setTorch(!torch);
            setTorch(!torch);
          }}
        >
          Torch
        </button>
      </nav>
    </div>
  );
}

function ResultFlash({
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

function AskPersons({
  shown,
  onChoose,
  onCancel,
}: {
  shown: Extract<Shown, { kind: 'ask' }>;
  onChoose: (n: number) => void;
  onCancel: () => void;
}) {
  const [n, setN] = useState(shown.remaining);
  return (
    <div
      role="dialog"
      aria-label="How many enter now?"
      className="absolute inset-0 z-30 flex flex-col justify-end bg-gray-950 p-4"
    >
      <p className="text-xl font-bold">
        {shown.ticket.name} · {shown.ticket.type}
      </p>
      <p className="mt-1">
        {shown.remaining} of {shown.ticket.allowed} entries left. How many enter now?
      </p>
      <div className="mt-4 flex items-center justify-center gap-4">
        <button
          type="button"
          className="min-h-14 w-20 rounded-xl bg-white/20 text-4xl font-bold"
          aria-label="One fewer"
          onClick={() => setN((v) => Math.max(1, v - 1))}
        >
          −
        </button>
        <span className="w-16 text-center text-5xl font-black tabular-nums" data-testid="gate-persons">
          {n}
        </span>
        <button
          type="button"
          className="min-h-14 w-20 rounded-xl bg-white/20 text-4xl font-bold"
          aria-label="One more"
          onClick={() => setN((v) => Math.min(shown.remaining, v + 1))}
        >
          +
        </button>
      </div>
      <button type="button" className={`${big} mt-4 w-full bg-emerald-600`} onClick={() => onChoose(n)}>
        Admit {n}
      </button>
      <button type="button" className={`${big} mt-2 w-full bg-white/15`} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

function LookUp({
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
            <button
              type="button"
              disabled={r.cancelled || r.admitted >= r.allowed}
              onClick={() => onPick(r.id)}
              className="min-h-14 min-w-0 flex-1 rounded-xl bg-white/10 px-3 py-2 text-left disabled:opacity-50"
            >
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
            </button>
            {r.admitted > 0 && (
              <button
                type="button"
                aria-label={`History: check-ins of ${r.name}`}
                onClick={() => setHistory({ id: r.id, name: r.name })}
                className="min-h-14 shrink-0 rounded-xl bg-white/20 px-3 font-semibold"
              >
                History
              </button>
            )}
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

/**
 * One ticket's admissions, from the server (issue 35): staff undo a chosen one, with a reason that is
 * logged with who and when, even after the device reloaded. Online only: the server decides.
 */
function TicketHistory({
  settings,
  engine,
  ticket,
  onUndone,
  onBack,
}: {
  settings: GateSettings;
  engine: GateEngine;
  ticket: { id: string; name: string };
  onUndone: () => void;
  onBack: () => void;
}) {
  const history = trpc.gate.history.useQuery(
    { eventId: settings.eventId, bookingId: ticket.id },
    { retry: false, enabled: engine.state.online },
  );
  const [undoing, setUndoing] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const offline = !engine.state.online || (history.isError && !history.error.data);
  const undo = (scanId: string) => {
    setPending(true);
    setError(null);
    engine
      .undo(scanId, reason)
      .then(
        () => {
          setUndoing(null);
          setReason('');
          onUndone();
          return history.refetch();
        },
        (e: unknown) => setError(undoFailure(e)),
      )
      .finally(() => setPending(false));
  };
  return (
    <div
      role="dialog"
      aria-label={`Check-ins of ${ticket.name}`}
      className="absolute inset-0 z-30 flex flex-col bg-gray-950 p-4"
    >
      <h2 className="text-xl font-bold">Check-ins of {ticket.name}</h2>
      {offline ? (
        <p role="alert" className="mt-3 text-amber-300">
          Undo needs the network: try again when online
        </p>
      ) : history.isPending ? (
        <p role="status" className="mt-3">
          Loading the check-ins…
        </p>
      ) : history.isError ? (
        <p role="alert" className="mt-3 text-red-300">
          {history.error.message}
        </p>
      ) : (
        <ul className="mt-3 flex-1 space-y-2 overflow-auto">
          {history.data.length === 0 && <li className="text-white/70">No admission at the gate yet.</li>}
          {history.data.map((a) => (
            <li key={a.scanId} className="rounded-xl bg-white/10 p-3">
              <p>
                <span className="font-semibold">
                  {a.persons} {a.persons === 1 ? 'person' : 'people'}
                </span>{' '}
                at {a.gate}, {formatInIndia(a.scannedAt, 'HH:mm')}, {a.staffName ?? 'unknown staff'}
                {a.offline ? ' (offline)' : ''}
              </p>
              {a.undone ? (
                <p className="text-sm text-white/80">
                  Undone {formatInIndia(a.undone.at, 'HH:mm')} by {a.undone.staffName ?? 'unknown staff'}:{' '}
                  {a.undone.reason}
                </p>
              ) : undoing === a.scanId ? (
                <form
                  className="mt-2"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (reason.trim().length >= 2) undo(a.scanId);
                    else setError('Say why (e.g. scanned the wrong ticket)');
                  }}
                >
                  <label className="block">
                    <span className="text-sm">Reason (kept in the log)</span>
                    <input
                      autoFocus
                      className="mt-1 min-h-14 w-full rounded-xl bg-white px-3 text-lg text-black"
                      value={reason}
                      maxLength={200}
                      onChange={(e) => setReason(e.target.value)}
                    />
                  </label>
                  {error && (
                    <p role="alert" className="mt-2 text-red-300">
                      {error}
                    </p>
                  )}
                  <button
                    type="submit"
                    disabled={pending}
                    className={`${big} mt-2 w-full bg-amber-500 text-black disabled:opacity-50`}
                  >
                    Undo this admission
                  </button>
                </form>
              ) : (
                <button
                  type="button"
                  className="mt-2 min-h-12 rounded-lg bg-amber-500 px-4 font-semibold text-black"
                  onClick={() => {
                    setUndoing(a.scanId);
                    setError(null);
                  }}
                >
                  Undo…
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className={`${big} mt-2 bg-white/15`} onClick={onBack}>
        Back
      </button>
    </div>
  );
}

/** What staff are told when an undo fails: the server's reason, or that it needs the network. */
function undoFailure(e: unknown): string {
  return e instanceof Unreachable || !(e instanceof Error)
    ? 'Undo needs the network: try again when online'
    : e.message;
}

function UndoLast({
  admit,
  engine,
  onDone,
  onClose,
}: {
  admit: Extract<Shown, { kind: 'admit' }>;
  engine: GateEngine;
  onDone: () => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('Scanned the wrong ticket');
  const [error, setError] = useState<string | null>(null);
  return (
    <div
      role="dialog"
      aria-label="Undo the last admission"
      className="absolute inset-0 z-30 flex flex-col justify-end bg-gray-950 p-4"
    >
      <p className="text-xl font-bold">
        Undo: {admit.ticket.name}, {admit.persons} {admit.persons === 1 ? 'person' : 'people'}
      </p>
      <label className="mt-3 block">
        <span className="text-sm">Reason (kept in the log)</span>
        <input
          className="mt-1 min-h-14 w-full rounded-xl bg-white px-3 text-lg text-black"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      {error && (
        <p role="alert" className="mt-2 text-red-300">
          {error}
        </p>
      )}
      <button
        type="button"
        className={`${big} mt-4 w-full bg-amber-500 text-black`}
        onClick={() =>
          engine.undo(admit.scanId, reason).then(onDone, (e: unknown) => setError(undoFailure(e)))
        }
      >
        Undo admission
      </button>
      <button type="button" className={`${big} mt-2 w-full bg-white/15`} onClick={onClose}>
        Keep it
      </button>
    </div>
  );
}

function DoubleEntries({
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

/**
 * The look-up's attendee names and answers in one line (issue 40), so staff can check who is who and
 * hand over what was asked for: "Asha Verma, Ravi Verma · T-shirt size: M, L".
 */
function attendeeLine(answers: {
  attendees: { name: string }[];
  answers: { label: string; value: string }[];
}): string {
  const byLabel = new Map<string, string[]>();
  for (const a of answers.answers) byLabel.set(a.label, [...(byLabel.get(a.label) ?? []), a.value]);
  return [
    answers.attendees.map((a) => a.name).join(', '),
    ...[...byLabel].map(([label, values]) => `${label}: ${values.join(', ')}`),
  ]
    .filter(Boolean)
    .join(' · ');
}
