import type { ReactNode } from 'react';

/** Counts of a looked-up ticket (a booking's own, or one person's): what decides whether it can be admitted. */
interface Admissible {
  allowed: number;
  admitted: number;
  cancelled: boolean;
}

/**
 * A looked-up ticket as one big button that admits it (the gate counts the tap as a scan of its QR); off
 * once everyone it lets in is in, or it was cancelled. The same for a booking's row and each person's.
 */
export function AdmitButton({
  ticket,
  onAdmit,
  children,
}: {
  ticket: Admissible;
  onAdmit: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      disabled={ticket.cancelled || ticket.admitted >= ticket.allowed}
      onClick={onAdmit}
      className="min-h-14 min-w-0 flex-1 rounded-xl bg-white/10 px-3 py-2 text-left disabled:opacity-50"
    >
      {children}
    </button>
  );
}

/** Beside a looked-up ticket someone has entered on: opens its check-ins, to undo one (issue 35). */
export function HistoryButton({
  ticket,
  onOpen,
}: {
  ticket: { name: string; admitted: number };
  onOpen: () => void;
}) {
  if (ticket.admitted === 0) return null;
  return (
    <button
      type="button"
      aria-label={`History: check-ins of ${ticket.name}`}
      onClick={onOpen}
      className="min-h-14 shrink-0 rounded-xl bg-white/20 px-3 font-semibold"
    >
      History
    </button>
  );
}
