import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type DefaultValues, type Path, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { FormError, FormNotice, fieldBinder, SelectField, SubmitButton, TextField } from '../auth-fields.tsx';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

interface EmailRole<R extends string> {
  email: string;
  role: R;
}

/**
 * An e-mail address and a role, sent to one mutation: the admin page's organiser-rights form and an
 * event team's invite form. `onSubmit` answers the notice to show once it worked; a server error on
 * the address is shown under the field, any other above the button.
 */
export function EmailRoleForm<R extends string>(props: {
  schema: z.ZodType<EmailRole<R>, EmailRole<R>>;
  defaultRole: R;
  emailLabel: string;
  roleLabel: string;
  rolePlaceholder: string;
  roles: readonly R[];
  roleLabels: Record<R, string>;
  submitLabel: string;
  busyText: string;
  onSubmit: (values: EmailRole<R>) => Promise<string>;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<EmailRole<R>, unknown, EmailRole<R>>({
    resolver: zodResolver(props.schema),
    defaultValues: { email: '', role: props.defaultRole } as DefaultValues<EmailRole<R>>,
  });
  const field = fieldBinder(form, () => {
    setFormError(null);
    setDone(null);
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      setDone(await props.onSubmit(values));
      form.reset();
    } catch (error) {
      setFormError(showServerErrors(form, error, ['email' as Path<EmailRole<R>>]));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="mt-3 space-y-4">
      <UnsavedChangesGuard form={form} />
      <TextField
        label={props.emailLabel}
        type="email"
        autoComplete="off"
        maxLength={254}
        {...field('email' as Path<EmailRole<R>>)}
      />
      <SelectField
        label={props.roleLabel}
        placeholder={props.rolePlaceholder}
        options={props.roles}
        optionLabels={props.roleLabels}
        {...field('role' as Path<EmailRole<R>>)}
      />
      <FormError message={formError} />
      {done && <FormNotice>{done}</FormNotice>}
      <SubmitButton busy={form.formState.isSubmitting} busyText={props.busyText}>
        {props.submitLabel}
      </SubmitButton>
    </form>
  );
}
