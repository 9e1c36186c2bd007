import { formatLongDate, indiaCalendarDay } from '../../../shared/dates.ts';
import { trpc } from '../../lib/trpc.ts';
import { AddSlotForm } from './add-slot-form.tsx';
import { EditError, type Run, useEditAction } from './edit-error.tsx';
import type { EditableEvent, EditableSlot, EditBase } from './editable-event.ts';
import { SlotBlock } from './slot-block.tsx';

/** One date of the event: its slots, a form to add one, and removing the date. */
export function DateBlock({
  base,
  date,
  allSlots,
  run,
}: {
  base: EditBase;
  date: EditableEvent['dates'][number];
  allSlots: EditableSlot[];
  run: Run;
}) {
  const removeDate = trpc.organiser.removeDate.useMutation();
  const remove = useEditAction(run);
  const label = formatLongDate(date.dateOfEvent);
  return (
    <li className="rounded-xl border border-gray-200 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-lg font-semibold">{label}</h3>
        <button
          type="button"
          disabled={removeDate.isPending}
          onClick={() => remove.act(() => removeDate.mutateAsync({ ...base, dateId: date.id }))}
          className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold disabled:opacity-60"
          aria-label={`Remove date ${label}`}
        >
          Remove date
        </button>
      </div>
      <EditError message={remove.error} />
      <ul className="mt-3 space-y-4">
        {date.slots.map((slot) => (
          <SlotBlock
            key={slot.id}
            base={base}
            slot={slot}
            day={indiaCalendarDay(date.dateOfEvent)}
            allSlots={allSlots}
            run={run}
          />
        ))}
      </ul>
      <AddSlotForm base={base} dateId={date.id} dateLabel={label} run={run} />
    </li>
  );
}
