import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import { messageOf } from '../../lib/auth.ts';

/** Starts the event editor again from what is saved now; given by the editor page (none elsewhere). */
export const EditorReloadContext = createContext<(() => void) | null>(null);

/**
 * An edit's refusal, shown next to the row, button or form that caused it (issue 35: a refusal shown in
 * a banner at the top of the editor sat ~2,900 px above the button on a phone). It is announced
 * (role=alert) and scrolled into view. A stale version carries Reload: someone else saved first, and
 * this page's forms hold an older event (reloading drops typed edits rather than overwrite theirs).
 */
export function EditError({ message }: { message: string | null | undefined }) {
  const ref = useRef<HTMLDivElement>(null);
  const reload = useContext(EditorReloadContext);
  useEffect(() => {
    if (message) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [message]);
  if (!message) return null;
  return (
    <div
      ref={ref}
      role="alert"
      className="mt-2 flex flex-wrap items-center justify-between gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm font-semibold text-red-800"
    >
      <p>{message}</p>
      {message === EDITOR_MESSAGES.staleVersion && reload && (
        <button
          type="button"
          onClick={reload}
          className="rounded-md bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800"
        >
          Reload
        </button>
      )}
    </div>
  );
}

/** Runs an edit (the editor's `run`: it reloads the event afterwards) and rethrows its error. */
export type Run = (work: () => Promise<unknown>) => Promise<void>;

/**
 * A button's edit with its own error line: `act` runs the work and keeps its refusal for an EditError
 * placed beside the button; a new try clears it first (so the same refusal is announced again).
 */
export function useEditAction(run: Run) {
  const [error, setError] = useState<string | null>(null);
  const act = (work: () => Promise<unknown>) => {
    // The clearing is committed before the work starts, however soon its refusal comes back: Preact
    // (docs/decisions/0044) batches a click's updates with those of the next microtask, which would fold
    // null and the same refusal into no change, and the refusal would be neither announced nor scrolled to.
    flushSync(() => setError(null));
    return run(work).catch((e: unknown) => setError(messageOf(e)));
  };
  return { error, act };
}
