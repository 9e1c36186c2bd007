import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConvenienceFeeCapInput } from '../../../shared/admin-schemas.ts';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { FormError, FormNotice, SubmitButton, TextField } from '../auth-fields.tsx';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

/**
 * The admin page's cap on every event's convenience fee (shared/admin-schemas.ts checks it here and on
 * the server). Saving says how many events were lowered to it.
 */
export function ConvenienceFeeCapForm({ percent }: { percent: number }) {
  const utils = trpc.useUtils();
  const save = trpc.admin.setConvenienceFeeCap.useMutation({
    onSuccess: () => utils.admin.convenienceFeeCap.invalidate(),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<ConvenienceFeeCapInput>({
    resolver: zodResolver(ConvenienceFeeCapInput),
    defaultValues: { percent },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setDone(null);
    try {
      const saved = await save.mutateAsync(values);
      const lowered =
        saved.lowered === 0
          ? 'No event charged more.'
          : `${saved.lowered} ${saved.lowered === 1 ? 'event was' : 'events were'} lowered to it.`;
      setDone(`Convenience fees are now capped at ${saved.cap} %. ${lowered}`);
      form.reset({ percent: saved.cap });
    } catch (error) {
      setFormError(showServerErrors(form, error, ['percent']));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="mt-3 space-y-4">
      <UnsavedChangesGuard form={form} />
      <TextField
        label="Highest convenience fee (%)"
        inputMode="decimal"
        error={form.formState.errors.percent?.message}
        {...form.register('percent', {
          setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v)),
          onChange: () => setDone(null),
        })}
      />
      <FormError message={formError} />
      {done && <FormNotice>{done}</FormNotice>}
      <SubmitButton busy={form.formState.isSubmitting} busyText="Saving...">
        Save cap
      </SubmitButton>
    </form>
  );
}
