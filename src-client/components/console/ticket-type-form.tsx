import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { formatInIndia } from '../../../shared/dates.ts';
import { TicketTypeFields } from '../../../shared/event-editor-schemas.ts';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { SubmitButton, TextAreaField, TextField } from '../auth-fields.tsx';
import { EditError } from './edit-error.tsx';
import { useFollowSavedValues } from './follow-saved-values.ts';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

export const NEW_TICKET: TicketTypeFields = {
  name: '',
  priceRupees: 0,
  totalTickets: 100,
  maxPerOrder: 10,
  personAllowedPerTicket: 1,
  description: '',
  benefits: [],
  isRefundable: false,
  onSale: true,
  isHidden: false,
  perAttendeeTickets: false,
  saleOpensAt: null,
  saleClosesAt: null,
};

/** A datetime-local value is read as India time, whatever the browser's zone; stored as UTC. */
const fromIndiaLocal = (v: unknown) =>
  typeof v === 'string' && v ? new Date(`${v}:00+05:30`).toISOString() : null;
const toIndiaLocal = (iso: string | null) => (iso ? formatInIndia(iso, "yyyy-MM-dd'T'HH:mm") : '');

/** Add or change one ticket type: price typed in rupees, sale window in India time. */
export function TicketTypeForm({
  initial,
  submitLabel,
  onSave,
}: {
  initial: TicketTypeFields;
  submitLabel: string;
  onSave: (ticket: TicketTypeFields) => Promise<unknown>;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TicketTypeFields>({ resolver: zodResolver(TicketTypeFields), defaultValues: initial });
  useFollowSavedValues(form, initial);
  const errorOf = (name: keyof TicketTypeFields) =>
    form.formState.errors[name]?.message as string | undefined;
  const text = (name: 'name' | 'description') => ({ error: errorOf(name), ...form.register(name) });
  const number = (name: 'priceRupees' | 'totalTickets' | 'maxPerOrder' | 'personAllowedPerTicket') => ({
    error: errorOf(name),
    inputMode: 'decimal' as const,
    ...form.register(name, { valueAsNumber: true }),
  });
  const instant = (name: 'saleOpensAt' | 'saleClosesAt', label: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field: f, fieldState }) => (
        <TextField
          label={label}
          type="datetime-local"
          error={fieldState.error?.message}
          value={toIndiaLocal(f.value)}
          onChange={(e) => f.onChange(fromIndiaLocal(e.target.value))}
          onBlur={f.onBlur}
        />
      )}
    />
  );
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSave(values);
      // Saved: a new type's form empties for the next one, an edited type's keeps what was saved; either
      // way it is clean again.
      form.reset(initial === NEW_TICKET ? NEW_TICKET : values);
    } catch (error) {
      setFormError(showServerErrors(form, error, ['totalTickets']));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3">
      <UnsavedChangesGuard form={form} />
      <TextField label="Ticket name" maxLength={80} {...text('name')} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Price (₹)" {...number('priceRupees')} />
        <TextField label="Capacity" {...number('totalTickets')} />
        <TextField label="Per-order maximum" {...number('maxPerOrder')} />
        <TextField label="Persons per ticket" {...number('personAllowedPerTicket')} />
        {instant('saleOpensAt', 'Sale opens (India time)')}
        {instant('saleClosesAt', 'Sale closes (India time)')}
      </div>
      <TextAreaField label="Ticket description" rows={2} maxLength={500} {...text('description')} />
      <Controller
        control={form.control}
        name="benefits"
        render={({ field: f, fieldState }) => (
          <TextAreaField
            label="Benefits (one per line)"
            rows={2}
            error={fieldState.error?.message}
            defaultValue={f.value.join('\n')}
            onChange={(e) =>
              f.onChange(
                e.target.value
                  .split('\n')
                  .map((l) => l.trim())
                  .filter(Boolean),
              )
            }
            onBlur={f.onBlur}
          />
        )}
      />
      <div className="flex flex-wrap gap-6">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('isRefundable')} /> Refundable
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('onSale')} /> On sale
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('isHidden')} /> Hidden: sold only with an access code
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('perAttendeeTickets')} /> One ticket per attendee: each
          person gets their own QR (for bookings made from now on)
        </label>
      </div>
      <EditError message={formError} />
      <SubmitButton busy={form.formState.isSubmitting} busyText="Saving...">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
