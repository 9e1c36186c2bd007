import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { EventDetailsFields } from '../../../shared/event-editor-schemas.ts';
import { DEFAULT_REFUND_CUTOFF_HOURS } from '../../../shared/refund-policy.ts';
import { DEFAULT_TRANSFERS_PER_BOOKING } from '../../../shared/transfer-schemas.ts';
import { WAITLIST_OFFER_MINUTES } from '../../../shared/waitlist-schemas.ts';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { fieldBinder, SubmitButton } from '../auth-fields.tsx';
import { EditError } from './edit-error.tsx';
import { EventBasicsFields } from './event-details-basics.tsx';
import { EventLineupFields } from './event-details-lineup.tsx';
import { EventPicturesFields } from './event-details-pictures.tsx';
import { EventRulesFields } from './event-details-rules.tsx';
import { useFollowSavedValues } from './follow-saved-values.ts';
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

/**
 * What the buyer's page says about the event, for both "Create event" and the editor: the shared zod
 * schema checks it here and again on the server, whose field messages land beside the same fields.
 * Pictures are uploaded to an event, so they appear once there is one (`eventId`, the editor). Its
 * parts, one screen each: the basics, the buyer's rules, the terms and line-up, the pictures.
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
  const unsaved = () => setSaved(false);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <UnsavedChangesGuard form={form} />
      <EventBasicsFields form={form} field={field} />
      <EventRulesFields form={form} field={field} onEdit={unsaved} />
      <EventLineupFields form={form} />
      <EventPicturesFields form={form} eventId={eventId} onEdit={unsaved} onBusyChange={onBusyChange} />
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
