import { useState } from 'react';
import { messageOf } from '../../lib/auth.ts';
import { ConfirmDialog } from '../confirm-dialog.tsx';

/**
 * A row action that asks once before it acts, through the console's one confirm dialog (issue 39: the
 * admin page had its own inline version). The dialog closes when the action is sent; a refusal from
 * the server is shown beside the button, where the row's state is.
 */
export function ConfirmButton({
  label,
  name,
  question,
  busy,
  error,
  onConfirm,
}: {
  /** The action, e.g. "Unpublish": the button says it and the dialog's confirm is "Yes, unpublish". */
  label: string;
  /** What it acts on, so each row's button has its own accessible name ("Unpublish Sunburn"). */
  name: string;
  question: string;
  busy: boolean;
  error: unknown;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <div className="flex flex-col items-end gap-2">
      <button
        type="button"
        disabled={busy}
        aria-label={`${label} ${name}`}
        onClick={() => setAsking(true)}
        className="rounded-md border border-red-300 px-3 py-1.5 font-semibold text-red-800 hover:bg-red-50 disabled:opacity-60"
      >
        {label}
      </button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`${label} ${name}?`}
        description={question}
        confirmLabel={`Yes, ${label.toLowerCase()}`}
        cancelLabel="Keep"
        busyLabel={`${label}...`}
        busy={busy}
        error={null}
        onConfirm={() => {
          onConfirm();
          setAsking(false);
        }}
      />
      {Boolean(error) && (
        <p role="alert" className="text-sm text-red-700">
          {messageOf(error)}
        </p>
      )}
    </div>
  );
}
