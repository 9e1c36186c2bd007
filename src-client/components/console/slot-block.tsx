import { formatTime } from '../../../shared/dates.ts';
import { trpc } from '../../lib/trpc.ts';
import { CancelSlotButton } from './cancel-dialogs.tsx';
import { CopyTicketTypesButton } from './copy-ticket-types-button.tsx';
import { EditError, type Run, useEditAction } from './edit-error.tsx';
import type { EditableSlot, EditBase } from './editable-event.ts';
import { MoveSlotForm } from './move-slot-form.tsx';
import { NEW_TICKET, TicketTypeForm } from './ticket-type-form.tsx';
import { TicketTypeRow } from './ticket-type-row.tsx';

/** One slot: its ticket types, moving, copying, removing or cancelling it, and adding a ticket type. */
export function SlotBlock({
  base,
  slot,
  day,
  allSlots,
  run,
}: {
  base: EditBase;
  slot: EditableSlot;
  day: string;
  allSlots: EditableSlot[];
  run: Run;
}) {
  const removeSlot = trpc.organiser.removeSlot.useMutation();
  const remove = useEditAction(run);
  const addType = trpc.organiser.addTicketType.useMutation();
  const label = `${formatTime(slot.startTime)} – ${formatTime(slot.endTime)}`;
  if (slot.cancelled) {
    return (
      <li className="rounded-lg bg-gray-50 p-3">
        <h4 className="font-semibold">
          Slot {label}{' '}
          <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-sm text-red-800">Cancelled</span>
        </h4>
      </li>
    );
  }
  return (
    <li className="rounded-lg bg-gray-50 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="font-semibold">Slot {label}</h4>
        <div className="flex flex-wrap gap-2">
          {slot.tickets.length > 0 && (
            <CopyTicketTypesButton base={base} slot={slot} allSlots={allSlots} run={run} />
          )}
          <button
            type="button"
            disabled={removeSlot.isPending}
            onClick={() => remove.act(() => removeSlot.mutateAsync({ ...base, slotId: slot.id }))}
            className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold disabled:opacity-60"
            aria-label={`Remove slot ${label}`}
          >
            Remove slot
          </button>
          <CancelSlotButton base={base} slotId={slot.id} label={label} run={run} />
        </div>
      </div>
      <EditError message={remove.error} />
      <MoveSlotForm base={base} slot={slot} day={day} label={label} run={run} />
      <ul className="mt-2 divide-y divide-gray-200">
        {slot.tickets.map((type) => (
          <TicketTypeRow key={type.id} base={base} type={type} run={run} />
        ))}
      </ul>
      <details className="mt-3">
        <summary className="cursor-pointer font-semibold text-brand-700">Add ticket type</summary>
        <div className="mt-3">
          <TicketTypeForm
            initial={NEW_TICKET}
            submitLabel="Add ticket type"
            onSave={(ticket) => run(() => addType.mutateAsync({ ...base, slotId: slot.id, ticket }))}
          />
        </div>
      </details>
    </li>
  );
}
