import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { messageOf } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';
import { SubmitButton, TextField } from '../auth-fields.tsx';
import { EditError, type Run } from './edit-error.tsx';
import type { EditBase } from './editable-event.ts';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

/** The day field of AddEventDateInput, for the "Add date" form. */
const DayForm = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a date as YYYY-MM-DD'),
});

/** "New date": adds a date to the event; its slots are added under it. */
export function AddDateForm({ base, run }: { base: EditBase; run: Run }) {
  const add = trpc.organiser.addDate.useMutation();
  const form = useForm<z.infer<typeof DayForm>>({
    resolver: zodResolver(DayForm),
    defaultValues: { day: '' },
  });
  const [error, setError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async ({ day }) => {
    setError(null);
    try {
      await run(() => add.mutateAsync({ ...base, day }));
      form.reset({ day: '' });
    } catch (e) {
      setError(messageOf(e));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 flex max-w-md flex-col gap-2">
      <UnsavedChangesGuard form={form} />
      <TextField
        label="New date"
        type="date"
        error={form.formState.errors.day?.message}
        {...form.register('day')}
      />
      <EditError message={error} />
      <SubmitButton busy={form.formState.isSubmitting} busyText="Adding...">
        Add date
      </SubmitButton>
    </form>
  );
}
