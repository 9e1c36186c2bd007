import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { CATEGORY_LABELS, EVENT_CATEGORIES } from '../../../shared/categories.ts';
import { EventDetailsFields } from '../../../shared/event-editor-schemas.ts';
import { DEFAULT_REFUND_CUTOFF_HOURS, REFUND_RULES, type RefundRule } from '../../../shared/refund-policy.ts';
import { DEFAULT_TRANSFERS_PER_BOOKING } from '../../../shared/transfer-schemas.ts';
import { WAITLIST_OFFER_MINUTES } from '../../../shared/waitlist-schemas.ts';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import {
  CityField,
  fieldBinder,
  SelectField,
  SubmitButton,
  TextAreaField,
  TextField,
} from '../auth-fields.tsx';
import { EditError } from './edit-error.tsx';
import { useFollowSavedValues } from './follow-saved-values.ts';
import { ImageUploadField } from './image-upload-field.tsx';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

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
  posterUrl: null,
  bannerUrl: null,
  maxTicketsPerBuyer: null,
  refundCutoffHours: DEFAULT_REFUND_CUTOFF_HOURS,
  refundRule: 'full',
  refundPercent: null,
  transfersAllowed: true,
  waitlistOfferMinutes: WAITLIST_OFFER_MINUTES.default,
  maxTransfersPerBooking: DEFAULT_TRANSFERS_PER_BOOKING,
};

const REFUND_RULE_LABELS: Record<RefundRule, string> = {
  full: 'Full amount',
  minus_fee: 'All but the convenience fee',
  percent: 'A percentage',
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
 * Pictures are uploaded to an event, so they appear once there is one (`eventId`, the editor).
 */
export function EventDetailsForm({
  initial,
  submitLabel,
  onSave,
  eventId,
}: {
  initial: EventDetailsFields;
  submitLabel: string;
  onSave: (values: EventDetailsFields) => Promise<unknown>;
  eventId?: string;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // Uploads under way: saving waits for them, or it would save the picture being replaced.
  const [uploading, setUploading] = useState(0);
  const onBusyChange = (busy: boolean) => setUploading((n) => n + (busy ? 1 : -1));
  const form = useForm<EventDetailsFields>({
    resolver: zodResolver(EventDetailsFields),
    defaultValues: initial,
  });
  useFollowSavedValues(form, initial);
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
      setFormError(showServerErrors(form, error, Object.keys(EMPTY_DETAILS) as (keyof EventDetailsFields)[]));
    }
  });
  const errorOf = (name: keyof EventDetailsFields) =>
    form.formState.errors[name]?.message as string | undefined;
  const lineup = useWatch({ control: form.control, name: 'artists' });
  const refundRule = useWatch({ control: form.control, name: 'refundRule' });
  const transfersAllowed = useWatch({ control: form.control, name: 'transfersAllowed' });
  const setPicture = (name: 'posterUrl' | 'bannerUrl', url: string | null) => {
    form.setValue(name, url, { shouldDirty: true, shouldValidate: true });
    setSaved(false);
  };
  const setArtistPhoto = (index: number, url: string | null) => {
    const next = form.getValues('artists').map((a, i) => (i === index ? { ...a, imageUrl: url } : a));
    form.setValue('artists', next, { shouldDirty: true, shouldValidate: true });
    setSaved(false);
  };
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <UnsavedChangesGuard form={form} />
      <TextField label="Event name" maxLength={120} {...field('name')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Category"
          placeholder="Choose a category"
          options={EVENT_CATEGORIES}
          optionLabels={CATEGORY_LABELS}
          {...field('category')}
        />
        <CityField {...field('city')} />
      </div>
      <TextField label="Venue" maxLength={300} {...field('eventLocationText')} />
      <TextField
        label="Map link"
        hint="Google Maps: Share, then Copy link (or Embed a map, then Copy HTML). Optional."
        maxLength={2000}
        {...field('googleMapsEmbedLink')}
      />
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
        <TextField
          label="Waiting-list offer time (minutes)"
          inputMode="numeric"
          hint="How long returned seats stay held for the next person on the waiting list"
          error={errorOf('waitlistOfferMinutes')}
          {...form.register('waitlistOfferMinutes', {
            setValueAs: (v) => (v === '' ? undefined : Number(v)),
          })}
        />
      </div>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-semibold text-gray-900">
          Buyer cancellation (refundable ticket types only)
        </legend>
        <TextField
          label="Cancel until (hours before the show)"
          inputMode="numeric"
          error={errorOf('refundCutoffHours')}
          {...form.register('refundCutoffHours', { setValueAs: (v) => (v === '' ? undefined : Number(v)) })}
        />
        <SelectField
          label="Refund"
          placeholder="Choose"
          options={REFUND_RULES}
          optionLabels={REFUND_RULE_LABELS}
          {...field('refundRule')}
        />
        {refundRule === 'percent' && (
          <TextField
            label="Refund (%)"
            inputMode="numeric"
            error={errorOf('refundPercent')}
            {...form.register('refundPercent', { setValueAs: emptyToNull })}
          />
        )}
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-semibold text-gray-900">Ticket transfers</legend>
        <label className="flex items-center gap-2 self-end pb-2 text-sm sm:col-span-2">
          <input
            type="checkbox"
            {...form.register('transfersAllowed', { onChange: () => setSaved(false) })}
          />{' '}
          Buyers may give their booking to someone else (the old QR stops working)
        </label>
        {transfersAllowed !== false && (
          <TextField
            label="Transfers per booking"
            inputMode="numeric"
            error={errorOf('maxTransfersPerBooking')}
            {...form.register('maxTransfersPerBooking', {
              setValueAs: (v) => (v === '' ? undefined : Number(v)),
            })}
          />
        )}
      </fieldset>
      <Controller
        control={form.control}
        name="termsAndConditions"
        render={({ field: f, fieldState }) => (
          <LinesField
            label="Terms (one per line)"
            rows={4}
            error={fieldState.error?.message ?? form.formState.errors.termsAndConditions?.[0]?.message}
            initial={f.value}
            onLines={f.onChange}
            onBlur={f.onBlur}
          />
        )}
      />
      <Controller
        control={form.control}
        name="artists"
        render={({ field: f, fieldState }) => (
          <LinesField
            label="Artists (one per line)"
            rows={3}
            error={fieldState.error?.message ?? form.formState.errors.artists?.[0]?.name?.message}
            initial={f.value.map((a) => a.name)}
            onLines={(names) => {
              // An artist whose name stays keeps the photo already chosen.
              const photos = new Map(f.value.map((a) => [a.name, a.imageUrl ?? null]));
              f.onChange(names.map((name) => ({ name, imageUrl: photos.get(name) ?? null })));
            }}
            onBlur={f.onBlur}
          />
        )}
      />
      {eventId ? (
        <fieldset className="space-y-5 rounded-xl border border-gray-200 p-4">
          <legend className="px-1 text-base font-bold text-gray-900">Pictures</legend>
          <ImageUploadField
            label="Poster image"
            kind="poster"
            eventId={eventId}
            value={form.watch('posterUrl') ?? null}
            onChange={(url) => setPicture('posterUrl', url)}
            onBusyChange={onBusyChange}
            error={errorOf('posterUrl')}
          />
          <ImageUploadField
            label="Banner image"
            kind="banner"
            eventId={eventId}
            value={form.watch('bannerUrl') ?? null}
            onChange={(url) => setPicture('bannerUrl', url)}
            onBusyChange={onBusyChange}
            error={errorOf('bannerUrl')}
          />
          {lineup.map((artist, index) => (
            <ImageUploadField
              key={artist.name}
              label={`Photo of ${artist.name}`}
              kind="artist"
              eventId={eventId}
              value={artist.imageUrl ?? null}
              onChange={(url) => setArtistPhoto(index, url)}
              onBusyChange={onBusyChange}
              error={form.formState.errors.artists?.[index]?.imageUrl?.message}
            />
          ))}
          <p className="text-sm text-gray-700">
            New pictures are kept when you save the details. The banner is optional: without one the event
            page shows the poster.
          </p>
        </fieldset>
      ) : (
        <p className="text-sm text-gray-700">
          You can add the poster and other pictures once the draft is created.
        </p>
      )}
      <EditError message={formError} />
      {saved && <p className="text-sm font-semibold text-green-700">Saved.</p>}
      <SubmitButton
        busy={form.formState.isSubmitting || uploading > 0}
        busyText={uploading > 0 ? 'Uploading...' : 'Saving...'}
      >
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

/** A text area edited as a list, one entry per non-empty line. */
function LinesField(props: {
  label: string;
  rows: number;
  error: string | undefined;
  initial: string[];
  onLines: (lines: string[]) => void;
  onBlur: () => void;
}) {
  return (
    <TextAreaField
      label={props.label}
      rows={props.rows}
      error={props.error}
      defaultValue={props.initial.join('\n')}
      onChange={(e) => props.onLines(lines(e.target.value))}
      onBlur={props.onBlur}
    />
  );
}
