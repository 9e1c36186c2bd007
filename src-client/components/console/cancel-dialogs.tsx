import { useState } from 'react';
import { formatPaiseExact } from '../../../shared/money.ts';
import { messageOf } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { EditError } from './edit-error.tsx';

type Base = { eventId: string; version: number };
type Run = (work: () => Promise<unknown>) => Promise<void>;

/** "Cancel slot" and its dialog, which names how many bookings will be refunded. */
export function CancelSlotButton({
  base,
  slotId,
  label,
  run,
}: {
  base: Base;
  slotId: string;
  label: string;
  run: Run;
}) {
  const [open, setOpen] = useState(false);
  const cancel = trpc.organiser.cancelSlot.useMutation();
  return (
    <>
      <button
        type="button"
        onClick={() => {
          cancel.reset();
          setOpen(true);
        }}
        className="rounded-md border border-red-300 px-3 py-1.5 text-sm font-semibold text-red-800"
        aria-label={`Cancel slot ${label}`}
      >
        Cancel slot
      </button>
      {open && (
        <CancelDialog
          open={open}
          onOpenChange={setOpen}
          title={`Cancel the slot ${label}?`}
          what="this slot"
          preview={{ eventId: base.eventId, slotId }}
          busy={cancel.isPending}
          error={cancel.error}
          onConfirm={() =>
            run(() => cancel.mutateAsync({ ...base, slotId }))
              .then(() => setOpen(false))
              .catch(() => {})
          }
        />
      )}
    </>
  );
}

/** The owner's "Cancel event" with its dialog. */
export function CancelEventSection({ base, run }: { base: Base; run: Run }) {
  const [open, setOpen] = useState(false);
  const cancel = trpc.organiser.cancelEvent.useMutation();
  return (
    <section aria-labelledby="cancel-event-heading">
      <h2 id="cancel-event-heading" className="text-xl font-bold">
        Cancel event
      </h2>
      <p className="mt-1 text-gray-700">
        Stops all sales, refunds every booking in full and e-mails each buyer. Only the owner can do this.
      </p>
      <button
        type="button"
        onClick={() => {
          cancel.reset();
          setOpen(true);
        }}
        className="mt-3 rounded-md bg-red-700 px-4 py-2.5 font-semibold text-white hover:bg-red-800"
      >
        Cancel event
      </button>
      {open && (
        <CancelDialog
          open={open}
          onOpenChange={setOpen}
          title="Cancel the whole event?"
          what="the event"
          preview={{ eventId: base.eventId }}
          busy={cancel.isPending}
          error={cancel.error}
          onConfirm={() =>
            run(() => cancel.mutateAsync(base))
              .then(() => setOpen(false))
              .catch(() => {})
          }
        />
      )}
    </section>
  );
}

function CancelDialog({
  open,
  onOpenChange,
  title,
  what,
  preview,
  busy,
  error,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  what: string;
  preview: { eventId: string; slotId?: string };
  busy: boolean;
  error: unknown;
  onConfirm: () => void;
}) {
  const impact = trpc.organiser.cancellationPreview.useQuery(preview);
  const n = impact.data?.bookings;
  const description =
    n === undefined
      ? 'Counting the bookings that will be refunded...'
      : n === 0
        ? `Nothing has been sold for ${what}. Sales stop and open holds are released.`
        : `${n} ${n === 1 ? 'booking' : 'bookings'} will be cancelled and refunded in full (${formatPaiseExact(impact.data?.amountPaise ?? 0)}), and each buyer e-mailed. Sales stop at once. This cannot be undone.`;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      confirmLabel={n ? `Cancel and refund ${n} ${n === 1 ? 'booking' : 'bookings'}` : 'Cancel'}
      busyLabel="Cancelling..."
      busy={busy || impact.isPending}
      error={null}
      onConfirm={onConfirm}
    >
      {/* Beside the confirm button that caused it, with Reload when someone else saved first. */}
      <EditError message={error ? messageOf(error, 'It could not be cancelled.') : null} />
    </ConfirmDialog>
  );
}
