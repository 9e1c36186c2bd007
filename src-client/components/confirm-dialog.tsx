import type { ReactNode } from 'react';
import Modal from './modal.tsx';

/**
 * "Are you sure?" for actions that cannot be undone (cancelling a booking, some tickets, a slot, an
 * event), for buyers, the console and admin alike (issue 39): what will happen in plain words, a red
 * confirm button that shows progress, and any error from the server. Once the action has been done, `done`
 * says what it did in place of the question, until the dialog is closed.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel = 'Keep it',
  busyLabel,
  busy,
  confirmDisabled = false,
  error,
  done,
  returnFocus,
  focusOnClose,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  /** The question's body under the description: what it costs, what to choose. */
  children?: ReactNode;
  confirmLabel: string;
  /** The button that closes the dialog without doing anything. */
  cancelLabel?: string;
  busyLabel: string;
  busy: boolean;
  /** Nothing to confirm (e.g. a copy that would add nothing): the confirm button stays off. */
  confirmDisabled?: boolean;
  error: string | null;
  /**
   * What the action did (e.g. the refund): replaces the body and the buttons, announced as a status, and
   * stays while the dialog is open even when what opened it has gone from the page. Closing is the X.
   */
  done?: ReactNode;
  /** Where focus goes on closing when the button that opened the dialog is no longer on the page. */
  returnFocus?: () => HTMLElement | null;
  /** Where focus goes on closing in place of the opener (e.g. the page's word on what was done). */
  focusOnClose?: () => HTMLElement | null;
  onConfirm: () => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      returnFocus={returnFocus}
      focusOnClose={focusOnClose}
      className="w-[calc(100%-2rem)] max-w-md p-5"
      headerClassName="flex items-start justify-between gap-3"
    >
      {done ? (
        <div role="status" className="mt-4 text-gray-900">
          {done}
        </div>
      ) : (
        <>
          {children}
          {error && (
            <p
              role="alert"
              className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm font-semibold text-red-800"
            >
              {error}
            </p>
          )}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <button
              type="button"
              onClick={() => onOpenChange(false)}
              className="rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50"
            >
              {cancelLabel}
            </button>
            <button
              type="button"
              disabled={busy || confirmDisabled}
              onClick={onConfirm}
              className="rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-70"
            >
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
