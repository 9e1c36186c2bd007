import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SlotFields, slotEndsNextDay } from '../../../shared/event-editor-schemas.ts';
import { trpc } from '../../lib/trpc.ts';
import { SubmitButton, TextField } from '../auth-fields.tsx';
import { EditError, type Run } from './edit-error.tsx';
import type { EditBase } from './editable-event.ts';
import { slotErrorOn } from './slot-error.ts';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

/** "Add slot" under a date: its start and end, India time (an end before the start is the next day). */
export function AddSlotForm({
  base,
  dateId,
  dateLabel,
  run,
}: {
  base: EditBase;
  dateId: string;
  dateLabel: string;
  run: Run;
}) {
  const add = trpc.organiser.addSlot.useMutation();
  const form = useForm<z.infer<typeof SlotFields>>({
    resolver: zodResolver(SlotFields),
    defaultValues: { startTime: '19:00', endTime: '21:00' },
  });
  const [error, setError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await run(() => add.mutateAsync({ ...base, dateId, ...values }));
      // Kept for the next date's slot, and clean: nothing is left unsaved.
      form.reset(values);
    } catch (e) {
      setError(slotErrorOn(form, e));
    }
  });
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={`Add slot on ${dateLabel}`}
      className="mt-3 grid max-w-md grid-cols-2 gap-2"
    >
      <UnsavedChangesGuard form={form} />
      <TextField
        label="Slot start (India time)"
        type="time"
        error={form.formState.errors.startTime?.message}
        {...form.register('startTime')}
      />
      <TextField
        label="Slot end (India time)"
        type="time"
        hint={slotEndsNextDay(form.watch()) ? 'Ends the next day' : undefined}
        error={form.formState.errors.endTime?.message}
        {...form.register('endTime')}
      />
      <div className="col-span-2">
        <EditError message={error} />
        <SubmitButton busy={form.formState.isSubmitting} busyText="Adding...">
          Add slot
        </SubmitButton>
      </div>
    </form>
  );
}
