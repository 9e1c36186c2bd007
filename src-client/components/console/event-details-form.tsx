import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { CATEGORY_LABELS, EVENT_CATEGORIES } from '../../../shared/categories.ts';
import { CITIES } from '../../../shared/cities.ts';
import { EventDetailsFields } from '../../../shared/event-editor-schemas.ts';
import { messageOf } from '../../lib/auth.ts';
import { fieldErrorsOf } from '../../lib/trpc.ts';
import {
  FormError,
  fieldBinder,
  SelectField,
  SubmitButton,
  TextAreaField,
  TextField,
} from '../auth-fields.tsx';

const CITY_NAMES = CITIES.map((c) => c.name);
const CITY_LABELS = Object.fromEntries(CITY_NAMES.map((n) => [n, n])) as Record<string, string>;

export const EMPTY_DETAILS: EventDetailsFields = {
  name: '',
  category: 'concerts',
  city: '',
  eventLocationText: '',
  googleMapsEmbedLink: '',
  description: '',
  ageRestrictions: null,
  language: '',
  termsAndConditions: [],
  artists: [],
  platformFeeRate: null,
  maxTicketsPerBuyer: null,
};

const emptyToNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));
const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * What the buyer's page says about the event, for both "Create event" and the editor: the shared zod
 * schema checks it here and again on the server, whose field messages land beside the same fields.
 */
export function EventDetailsForm({
  initial,
  submitLabel,
  onSave,
}: {
  initial: EventDetailsFields;
  submitLabel: string;
  onSave: (values: EventDetailsFields) => Promise<unknown>;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<EventDetailsFields>({
    resolver: zodResolver(EventDetailsFields),
    defaultValues: initial,
  });
  const field = fieldBinder(form, () => {
    setFormError(null);
    setSaved(false);
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSave(values);
      setSaved(true);
      form.reset(values);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      let placed = false;
      for (const [name, message] of Object.entries(fields)) {
        if (name in EMPTY_DETAILS) {
          form.setError(name as keyof EventDetailsFields, { message });
          placed = true;
        }
      }
      if (!placed) setFormError(messageOf(error, 'Something went wrong. Please try again.'));
    }
  });
  const errorOf = (name: keyof EventDetailsFields) =>
    form.formState.errors[name]?.message as string | undefined;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField label="Event name" maxLength={120} {...field('name')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Category"
          placeholder="Choose a category"
          options={EVENT_CATEGORIES}
          optionLabels={CATEGORY_LABELS}
          {...field('category')}
        />
        <SelectField
          label="City"
          placeholder="Choose a city"
          options={CITY_NAMES}
          optionLabels={CITY_LABELS}
          {...field('city')}
        />
      </div>
      <TextField label="Venue" maxLength={300} {...field('eventLocationText')} />
      <TextField label="Map link" type="url" maxLength={2000} {...field('googleMapsEmbedLink')} />
      <TextAreaField label="Description" rows={5} maxLength={5000} {...field('description')} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          label="Age limit"
          inputMode="numeric"
          error={errorOf('ageRestrictions')}
          {...form.register('ageRestrictions', { setValueAs: emptyToNull })}
        />
        <TextField label="Language" maxLength={60} {...field('language')} />
        <TextField
          label="Convenience fee (%)"
          inputMode="decimal"
          error={errorOf('platformFeeRate')}
          {...form.register('platformFeeRate', { setValueAs: emptyToNull })}
        />
        <TextField
          label="Max tickets per buyer"
          inputMode="numeric"
          hint="Held and booked together; empty for no limit"
          error={errorOf('maxTicketsPerBuyer')}
          {...form.register('maxTicketsPerBuyer', { setValueAs: emptyToNull })}
        />
      </div>
      <Controller
        control={form.control}
        name="termsAndConditions"
        render={({ field: f, fieldState }) => (
          <TextAreaField
            label="Terms (one per line)"
            rows={4}
            error={fieldState.error?.message ?? form.formState.errors.termsAndConditions?.[0]?.message}
            defaultValue={f.value.join('\n')}
            onChange={(e) => f.onChange(lines(e.target.value))}
            onBlur={f.onBlur}
          />
        )}
      />
      <Controller
        control={form.control}
        name="artists"
        render={({ field: f, fieldState }) => (
          <TextAreaField
            label="Artists (one per line)"
            rows={3}
            error={fieldState.error?.message ?? form.formState.errors.artists?.[0]?.name?.message}
            defaultValue={f.value.map((a) => a.name).join('\n')}
            onChange={(e) => f.onChange(lines(e.target.value).map((name) => ({ name })))}
            onBlur={f.onBlur}
          />
        )}
      />
      <FormError message={formError} />
      {saved && <p className="text-sm font-semibold text-green-700">Saved.</p>}
      <SubmitButton busy={form.formState.isSubmitting} busyText="Saving...">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
