import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ADMISSION_KIND_LABELS, ADMISSION_KINDS, type AdmissionKind } from '../../../shared/gst.ts';
import {
  eventTaxRateSchema,
  GST_MESSAGES,
  type TicketSaleGstProblem,
  ticketSaleGstProblemMessage,
} from '../../../shared/gst-schemas.ts';
import { INDIAN_STATES, type IndianState } from '../../../shared/states.ts';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { FormError, FormNotice, SelectField, SubmitButton, TextField } from '../auth-fields.tsx';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

/** The shared schema's GST fields: empty rate or kind (null) is the profile's rate or the category's kind. */
const GstForm = eventTaxRateSchema.pick({
  taxRate: true,
  venueState: true,
  admissionKind: true,
  taxInclusive: true,
});
type GstInput = z.input<typeof GstForm>;
type GstValues = z.output<typeof GstForm>;

export interface EventGst {
  eventId: string;
  taxRate: number | null;
  venueState: string | null;
  /** The states a venue in the event's city may be in (one: the default; more: the organiser chooses). */
  venueStates: readonly IndianState[];
  admissionKind: AdmissionKind | null;
  defaultAdmissionKind: AdmissionKind;
  /** Prices include GST (true) or have it added at checkout (false); null: the profile's (issue 40). */
  taxInclusive: boolean | null;
  /** The owner's GST standing: only a registered organiser may add GST on top (the server refuses too). */
  invoicing: { registered: boolean };
  /**
   * Why the tickets are not sold (issue 36): their rate (the event's, else the profile's default) left the
   * GST schedule on 22 September 2025, or the venue's state is not set where the city spans states.
   */
  ticketSaleGstProblem: TicketSaleGstProblem | null;
}

type PriceBasis = 'include' | 'plus';
const PRICE_BASES: readonly PriceBasis[] = ['include', 'plus'];
const PRICE_BASIS_LABELS: Record<PriceBasis, string> = {
  include: 'Prices include GST',
  plus: 'Prices plus GST (added at checkout)',
};
/** The select's value for a stored choice; '' is the profile's. */
const basisOf = (taxInclusive: boolean | null | undefined): PriceBasis | '' =>
  taxInclusive === true ? 'include' : taxInclusive === false ? 'plus' : '';

const STATE_LABELS = Object.fromEntries(INDIAN_STATES.map((s) => [s, s])) as Record<IndianState, string>;

const emptyIsNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : v);

/**
 * Issues 16 and 36: the event's GST settings. The venue's state is the place of supply (IGST Act
 * s.12(6)): filled in when the city is in one state, to be chosen where its area spans states
 * (Delhi/NCR, Chandigarh). The kind of admission decides whether entry 81's ₹500 exemption applies; its
 * default follows the category. The rate, empty, is the organiser profile's default.
 */
export function EventGstSection({ gst }: { gst: EventGst }) {
  const { eventId, venueStates } = gst;
  const utils = trpc.useUtils();
  const save = trpc.invoices.setEventTaxRate.useMutation({
    onSuccess: () => utils.organiser.editableEvent.invalidate({ eventId }),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const defaultValues: GstInput = {
    taxRate: gst.taxRate,
    venueState:
      venueStates.find((s) => s === gst.venueState) ?? (venueStates.length === 1 ? venueStates[0]! : null),
    admissionKind: gst.admissionKind,
    taxInclusive: gst.taxInclusive,
  };
  const form = useForm<GstInput, unknown, GstValues>({
    // The server knows the city too and refuses the same (services/invoices/set-event-tax.ts).
    resolver: zodResolver(
      GstForm.refine((v) => venueStates.length <= 1 || !!v.venueState, {
        message: GST_MESSAGES.venueStateRequired,
        path: ['venueState'],
      }),
    ),
    defaultValues,
  });
  const changed = () => {
    setSaved(false);
    setFormError(null);
  };
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      // An unregistered organiser has no choice to send (the field is not shown): left out, unchanged.
      const { taxInclusive, ...rest } = values;
      await save.mutateAsync({ eventId, ...rest, ...(gst.invoicing.registered && { taxInclusive }) });
      form.reset(values);
      setSaved(true);
    } catch (error) {
      setFormError(showServerErrors(form, error, ['taxRate', 'venueState', 'admissionKind', 'taxInclusive']));
    }
  });
  const errors = form.formState.errors;
  return (
    <section aria-labelledby="tax-heading" className="max-w-md">
      <h2 id="tax-heading" className="text-xl font-bold">
        GST
      </h2>
      <form onSubmit={onSubmit} noValidate className="mt-3 space-y-4">
        <UnsavedChangesGuard form={form} />
        <SelectField
          label="Venue’s state (place of supply)"
          placeholder="Choose the venue’s state"
          options={venueStates}
          optionLabels={STATE_LABELS}
          error={errors.venueState?.message}
          // Shown from the first render (react-hook-form also holds it as the field's value).
          defaultValue={defaultValues.venueState ?? ''}
          {...form.register('venueState', { setValueAs: emptyIsNull, onChange: changed })}
        />
        <SelectField
          label="Kind of event"
          placeholder={`Category default: ${ADMISSION_KIND_LABELS[gst.defaultAdmissionKind]}`}
          options={ADMISSION_KINDS}
          optionLabels={ADMISSION_KIND_LABELS}
          error={errors.admissionKind?.message}
          defaultValue={defaultValues.admissionKind ?? ''}
          {...form.register('admissionKind', { setValueAs: emptyIsNull, onChange: changed })}
        />
        <p className="text-sm text-gray-600">
          Admission of ₹500 or less per person is exempt only for circus, dance, theatre, concerts, award
          functions, pageants, sporting events and planetariums.
        </p>
        {gst.invoicing.registered && (
          <SelectField
            label="Ticket prices"
            placeholder="Prices include GST (profile default)"
            options={PRICE_BASES}
            optionLabels={PRICE_BASIS_LABELS}
            error={errors.taxInclusive?.message}
            defaultValue={basisOf(defaultValues.taxInclusive)}
            {...form.register('taxInclusive', {
              setValueAs: (v: unknown) => (v === 'include' ? true : v === 'plus' ? false : emptyIsNull(v)),
              onChange: changed,
            })}
          />
        )}
        {gst.invoicing.registered && (
          <p className="text-sm text-gray-600">
            Plus GST: buyers see “₹750 + GST” from the first screen and pay the GST at checkout.
          </p>
        )}
        {gst.ticketSaleGstProblem !== null && (
          <p role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
            {ticketSaleGstProblemMessage(gst.ticketSaleGstProblem, 'organiser')}
          </p>
        )}
        <TextField
          label="GST on admission (%)"
          type="number"
          inputMode="decimal"
          step="1"
          min={0}
          max={40}
          placeholder="Profile default"
          hint="Leave empty to use your organiser profile's default rate."
          error={errors.taxRate?.message}
          {...form.register('taxRate', {
            // Empty is "the profile's default" (null); anything else is checked as a number by the schema.
            setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v)),
            onChange: changed,
          })}
        />
        <FormError message={formError} />
        {saved && <FormNotice>Saved.</FormNotice>}
        <SubmitButton busy={form.formState.isSubmitting} busyText="Saving...">
          Save GST settings
        </SubmitButton>
      </form>
    </section>
  );
}
