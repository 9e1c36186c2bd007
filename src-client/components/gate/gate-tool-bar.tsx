import { tool } from './gate-buttons.ts';
import type { useCamera } from './use-camera.ts';

/** The bottom bar under the thumb: look up, undo the last admission, switch camera, torch. */
export function GateToolBar({
  camera,
  canUndo,
  onLookUp,
  onUndo,
}: {
  camera: ReturnType<typeof useCamera>;
  canUndo: boolean;
  onLookUp: () => void;
  onUndo: () => void;
}) {
  return (
    <nav className="grid grid-cols-4 gap-2 p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
      <button type="button" className={`${tool} bg-white/15`} onClick={onLookUp}>
        Look up
      </button>
      <button
        type="button"
        className={`${tool} bg-white/15 disabled:opacity-40`}
        disabled={!canUndo}
        onClick={onUndo}
      >
        Undo
      </button>
      <button
        type="button"
        className={`${tool} bg-white/15`}
        onClick={camera.switchFacing}
        aria-label="Switch camera"
      >
        {/* The visible word is in the name (WCAG 2.5.3, Label in Name): a voice user says what they see. */}
        <span aria-hidden="true">⇄</span> Camera
      </button>
      <button
        type="button"
        className={`${tool} bg-white/15 disabled:opacity-40`}
        disabled={!camera.hasTorch}
        aria-pressed={camera.torch}
        onClick={camera.toggleTorch}
      >
        Torch
      </button>
    </nav>
  );
}
