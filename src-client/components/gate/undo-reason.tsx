import { GateUndoInput } from '../../../shared/gate-schemas.ts';

/**
 * Why an admission is taken back, asked the same way wherever staff undo one (the last admission, or one
 * from a ticket's check-ins): the reason the server logs with who and when, and what stopped the undo.
 */
export function UndoReason({
  value,
  onChange,
  error,
  autoFocus = false,
}: {
  value: string;
  onChange: (reason: string) => void;
  error: string | null;
  autoFocus?: boolean;
}) {
  return (
    <>
      <label className="mt-3 block">
        <span className="text-sm">Reason (kept in the log)</span>
        <input
          autoFocus={autoFocus}
          className="mt-1 min-h-14 w-full rounded-xl bg-white px-3 text-lg text-black"
          value={value}
          maxLength={GateUndoInput.shape.reason.maxLength ?? undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      {error && (
        <p role="alert" className="mt-2 text-red-300">
          {error}
        </p>
      )}
    </>
  );
}

/** What is wrong with a reason by the server's own rule (GateUndoInput), before the undo is sent. */
export function undoReasonProblem(reason: string): string | null {
  const checked = GateUndoInput.shape.reason.safeParse(reason);
  return checked.success ? null : (checked.error.issues[0]?.message ?? 'Say why');
}
