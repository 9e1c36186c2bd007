import { useState } from 'react';
import { type CopyPlan, planTicketTypeCopy } from '../../../shared/copy-ticket-types.ts';
import { formatCount } from '../../../shared/money.ts';
import { messageOf } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { EditError, type Run } from './edit-error.tsx';
import type { EditableSlot, EditableTicketType, EditBase } from './editable-event.ts';

/**
 * "Copy ticket types to all slots", asked first (issue 35: one click gave a duplicate slot the full
 * house again): the dialog names how many slots, ticket types and seats the copy adds, as the server's
 * own plan of it (shared/copy-ticket-types.ts) counts them.
 */
export function CopyTicketTypesButton({
  base,
  slot,
  allSlots,
  run,
}: {
  base: EditBase;
  slot: EditableSlot;
  allSlots: EditableSlot[];
  run: Run;
}) {
  const copy = trpc.organiser.copyTicketTypesToAllSlots.useMutation();
  // Planned when the dialog opens and kept: the event reloads after the copy, before the dialog closes.
  const [plan, setPlan] = useState<CopyPlan<EditableTicketType> | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setError(null);
          setPlan(planTicketTypeCopy(allSlots, slot.id));
        }}
        className="rounded-md border border-brand-600 px-3 py-1.5 text-sm font-semibold text-brand-700"
      >
        Copy ticket types to all slots
      </button>
      {plan && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setPlan(null)}
          title="Copy these ticket types to all slots?"
          description={copyDescription(plan)}
          cancelLabel="Don't copy"
          confirmLabel={plan.ticketTypes === 0 ? 'Nothing to copy' : `Copy and add ${seats(plan.seats)}`}
          busyLabel="Copying..."
          busy={copy.isPending}
          confirmDisabled={plan.ticketTypes === 0}
          error={null}
          onConfirm={() => {
            setError(null);
            run(() => copy.mutateAsync({ ...base, fromSlotId: slot.id }))
              .then(() => setPlan(null))
              .catch((e: unknown) => setError(messageOf(e)));
          }}
        >
          <EditError message={error} />
        </ConfirmDialog>
      )}
    </>
  );
}

const seats = (n: number) => `${formatCount(n)} ${n === 1 ? 'seat' : 'seats'}`;

/** What the copy will do, in the organiser's words: slots, ticket types and seats it adds. */
export function copyDescription(plan: CopyPlan<EditableTicketType>): string {
  if (plan.ticketTypes === 0)
    return 'Every other slot already has ticket types of these names (or is cancelled): nothing would be added.';
  const slots = plan.additions.length;
  return (
    `This adds ${plan.ticketTypes} ${plan.ticketTypes === 1 ? 'ticket type' : 'ticket types'} to ` +
    `${slots} other ${slots === 1 ? 'slot' : 'slots'}, putting ${seats(plan.seats)} more on sale. ` +
    "Each slot sells its own seats, so check that every slot is a separate show. Sale windows keep the same distance from each slot's start."
  );
}
