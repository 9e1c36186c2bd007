import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatInIndia } from '../../../shared/dates.ts';
import { SlotMoveFields, slotEndsNextDay } from '../../../shared/event-editor-schemas.ts';
import { trpc } from '../../lib/trpc.ts';
import { SubmitButton, TextField } from '../auth-fields.tsx';
import { EditError, type Run } from './edit-error.tsx';
import type { EditableSlot, EditBase } from './editable-event.ts';
import { slotErrorOn } from './slot-error.ts';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

/**
 * "Change date or time": moves a slot to other times, on its date or another (made when the event has no
 * such date). Tickets stay valid; every holder is e-mailed old and new, and after a move to another day
 * may cancel for a full refund until the new start. The server decides all of it (reschedule-slot.ts).
 */
export function MoveSlotForm({
  base,
  slot,
  day,
  label,
  run,
}: {
  base: EditBase;
  slot: EditableSlot;
  day: string;
  label: string;
  run: Run;
}) {
  const move = trpc.organiser.updateSlotTime.useMutation();
  const form = useForm<z.infer<typeof SlotMoveFields>>({
    resolver: zodResolver(SlotMoveFields),
    defaultValues: {
      day,
      startTime: formatInIndia(slot.startTime, 'HH:mm'),
      endTime: formatInIndia(slot.endTime, 'HH:mm'),
    },
  });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const newDay = form.watch('day') !== day;
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    setDone(null);
    try {
      await run(async () => {
        const result = await move.mutateAsync({ ...base, slotId: slot.id, ...values });
        const mailed =
          result.holdersMailed > 0
            ? ` ${result.holdersMailed} ticket ${result.holdersMailed === 1 ? 'holder was' : 'holders were'} e-mailed the new ${result.dateMoved ? 'date' : 'time'}${result.dateMoved ? ' and may cancel for a full refund until the show starts' : ''}.`
            : '';
        setDone(`Moved.${mailed}`);
      });
      form.reset(values);
    } catch (e) {
      setError(slotErrorOn(form, e));
    }
  });
  return (
    <details className="mt-2">
      <summary className="cursor-pointer font-semibold text-brand-700">Change date or time</summary>
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label={`Change date or time of slot ${label}`}
        className="mt-3 grid max-w-md grid-cols-2 gap-2"
      >
        <UnsavedChangesGuard form={form} />
        <div className="col-span-2">
          <TextField
            label="Date"
            type="date"
            error={form.formState.errors.day?.message}
            {...form.register('day')}
          />
        </div>
        <TextField
          label="New start (India time)"
          type="time"
          error={form.formState.errors.startTime?.message}
          {...form.register('startTime')}
        />
        <TextField
          label="New end (India time)"
          type="time"
          hint={slotEndsNextDay(form.watch()) ? 'Ends the next day' : undefined}
          error={form.formState.errors.endTime?.message}
          {...form.register('endTime')}
        />
        <div className="col-span-2">
          <p className="mb-2 text-sm text-gray-600">
            {newDay
              ? 'Tickets stay valid for the new date. Everyone holding one is e-mailed, and may cancel for a full refund until the show starts, even if their tickets are not refundable.'
              : 'Everyone holding a ticket for this slot is e-mailed the old and new time.'}
          </p>
          <EditError message={error} />
          {done && (
            <p role="status" className="mb-2 text-sm text-green-800">
              {done}
            </p>
          )}
          <SubmitButton busy={form.formState.isSubmitting} busyText="Saving...">
            {newDay ? 'Move to this date' : 'Save new time'}
          </SubmitButton>
        </div>
      </form>
    </details>
  );
}
