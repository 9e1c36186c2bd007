import { useState } from 'react';
import type { GateSettings } from '../../gate/gate-settings.ts';
import { AskPersons } from './ask-persons.tsx';
import { DoubleEntries } from './double-entries.tsx';
import { big } from './gate-buttons.ts';
import { GateStatusBar } from './gate-status-bar.tsx';
import { GateToolBar } from './gate-tool-bar.tsx';
import { LookUp } from './look-up.tsx';
import { ResultFlash } from './result-flash.tsx';
import { UndoLast } from './undo-last.tsx';
import { useCamera } from './use-camera.ts';
import { useGateEngine } from './use-gate-engine.ts';
import { useOfflineCopy } from './use-offline-copy.ts';
import { useScanner } from './use-scanner.ts';

/** The full-screen scanner: camera, result flash, counters, look-up and undo. */
export function ScanScreen({ settings, onChange }: { settings: GateSettings; onChange: () => void }) {
  const { engine, state, failed, decoder } = useGateEngine(settings);
  const offlineCopy = useOfflineCopy();
  const camera = useCamera();
  const [panel, setPanel] = useState<'none' | 'lookup' | 'undo' | 'doubles'>('none');
  const scanner = useScanner(engine, camera.video, panel !== 'none');
  const { shown, lastAdmit } = scanner;
  const closePanel = () => {
    setPanel('none');
    scanner.uncovered();
  };

  return (
    <div
      className="fixed inset-0 z-50 flex flex-col bg-black text-white"
      data-decoder={decoder}
      data-offline-copy={offlineCopy}
    >
      <GateStatusBar
        settings={settings}
        state={state}
        offlineCopy={offlineCopy}
        onChange={onChange}
        onShowDoubles={() => setPanel('doubles')}
      />
      <div className="relative flex-1 overflow-hidden">
        <video ref={camera.video} playsInline muted className="h-full w-full object-cover" />
        {!engine && !failed && (
          <p className="absolute inset-x-0 top-1/3 text-center">Downloading the ticket list…</p>
        )}
        {failed && (
          <p role="alert" className="absolute inset-x-0 top-1/3 text-center">
            {failed}
          </p>
        )}
        {camera.cameraError && (
          <div role="alert" className="absolute inset-x-4 top-4 z-10 rounded-lg bg-black/80 p-3">
            <p>{camera.cameraError}</p>
            <button type="button" className={`${big} mt-2 w-full bg-white/20`} onClick={camera.retry}>
              Try the camera again
            </button>
          </div>
        )}
        <div className="pointer-events-none absolute inset-[15%] rounded-3xl border-4 border-white/60" />
        {shown && shown.kind !== 'ask' && (
          <ResultFlash shown={shown} settings={settings} onDismiss={scanner.dismiss} />
        )}
        {shown?.kind === 'ask' && (
          <AskPersons
            shown={shown}
            onChoose={(n) => scanner.admitPersons(shown, n)}
            onCancel={scanner.dismiss}
          />
        )}
        {panel === 'lookup' && engine && (
          <LookUp
            settings={settings}
            engine={engine}
            onPick={(bookingId) => {
              setPanel('none');
              scanner.scanBooking(bookingId);
            }}
            onUndone={scanner.forgetTicket}
            onClose={closePanel}
          />
        )}
        {panel === 'undo' && engine && lastAdmit && (
          <UndoLast
            admit={lastAdmit}
            engine={engine}
            onDone={() => {
              scanner.forgetLastAdmit();
              setPanel('none');
            }}
            onClose={closePanel}
          />
        )}
        {panel === 'doubles' && state && <DoubleEntries entries={state.doubleEntries} onClose={closePanel} />}
      </div>
      <GateToolBar
        camera={camera}
        canUndo={Boolean(lastAdmit)}
        onLookUp={() => setPanel('lookup')}
        onUndo={() => setPanel('undo')}
      />
    </div>
  );
}
