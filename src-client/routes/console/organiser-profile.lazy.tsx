import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  type OrganiserProfile,
  type OrganiserProfileInput,
  organiserProfileSchema,
} from '../../../shared/gst-schemas.ts';
import { INDIAN_STATES } from '../../../shared/states.ts';
import {
  FormError,
  FormNotice,
  fieldBinder,
  SelectField,
  SubmitButton,
  TextAreaField,
  TextField,
} from '../../components/auth-fields.tsx';
import { EInvoicingSettings } from '../../components/console/e-invoicing.tsx';
import { SellingCosts } from '../../components/console/selling-costs.tsx';
import { UnsavedChangesGuard } from '../../components/console/unsaved-changes-guard.tsx';
import { InvoiceMonthDownloads } from '../../components/invoice-month-downloads.tsx';
import { LoadingText } from '../../components/status-screens.tsx';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/organiser/profile')({ component: OrganiserProfilePage });

const FIELDS = ['legalName', 'address', 'state', 'gstin', 'defaultTaxRate', 'taxInclusive'] as const;
const STATE_LABELS = Object.fromEntries(INDIAN_STATES.map((s) => [s, s])) as Record<string, string>;

function OrganiserProfilePage() {
  const profile = trpc.invoices.profile.useQuery(undefined, { retry: false });
  if (profile.isPending) return <LoadingText />;
  return (
    <section className="mx-auto w-full max-w-2xl space-y-6 px-4 py-8">
      <div>
        <Link to="/organiser" className="text-sm font-semibold text-brand-700 underline">
          Organiser console
        </Link>
        <h1 className="mt-2 text-3xl font-extrabold text-gray-900">Organiser profile</h1>
        <p className="mt-2 text-gray-700">
          These details appear as the supplier on the GST invoice of every booking. Invoices already issued
          keep the details they were issued with.
        </p>
      </div>
      {profile.data && !profile.data.complete && (
        <p role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          {profile.data.gstin
            ? 'Your organisation and GSTIN were carried over from your organiser request. Add your address and save: until then no invoices are issued and your events cannot be published. Bookings already sold get their invoices when you save.'
            : 'Your organisation was carried over from your organiser request. Add your address and save so buyers get a bill of supply; bookings already sold get theirs when you save.'}
        </p>
      )}
      <ProfileForm initial={profile.data ?? null} />
      <SellingCosts />
      <MonthlyCsv />
      <EInvoicingSettings registered={Boolean(profile.data?.gstin)} />
    </section>
  );
}

function ProfileForm({ initial }: { initial: OrganiserProfileInput | null }) {
  const utils = trpc.useUtils();
  const save = trpc.invoices.saveProfile.useMutation({
    onSuccess: () => utils.invoices.profile.invalidate(),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useForm<OrganiserProfileInput, unknown, OrganiserProfile>({
    resolver: zodResolver(organiserProfileSchema),
    defaultValues: {
      ...(initial ?? { legalName: '', address: '', state: '', gstin: '', defaultTaxRate: 18 }),
      taxInclusive: true,
    },
  });
  const field = fieldBinder(form, () => {
    setFormError(null);
    setSaved(null);
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      // Shows what was stored (the GSTIN upper-cased, the address trimmed).
      const stored = await save.mutateAsync(values);
      form.reset(stored);
      const issued = stored.invoicesIssued;
      setSaved(
        issued === 0
          ? 'Saved.'
          : `Saved. ${issued} ${issued === 1 ? 'invoice was' : 'invoices were'} issued for bookings sold before your details were complete.`,
      );
    } catch (error) {
      setFormError(showServerErrors(form, error, FIELDS));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-2xl border border-gray-200 p-5 sm:p-6">
      <UnsavedChangesGuard form={form} />
      <TextField label="Legal name" autoComplete="organization" maxLength={120} {...field('legalName')} />
      <TextAreaField label="Address" rows={3} maxLength={300} {...field('address')} />
      <SelectField
        label="State"
        placeholder="Select your state"
        options={INDIAN_STATES}
        optionLabels={STATE_LABELS}
        {...field('state')}
      />
      <TextField
        label="GSTIN (leave empty if not registered)"
        autoCapitalize="characters"
        maxLength={15}
        hint="15 characters, e.g. 27AAPFU0939F1ZV. Without one you charge no GST and no GST invoice is issued: bookings get a bill of supply. With one, your events cannot be published until these details are complete."
        {...field('gstin')}
      />
      <TextField
        label="Default GST rate (%)"
        type="number"
        inputMode="decimal"
        step="0.01"
        min={0}
        max={28}
        hint="18% for admission to events; an event can set its own in the editor."
        {...form.register('defaultTaxRate', { valueAsNumber: true })}
        error={form.formState.errors.defaultTaxRate?.message}
      />
      {/* Whether GST is added on top is chosen per event (issue 40), in the event editor's GST section. */}
      <p className="text-sm text-gray-700">
        Ticket prices include GST unless an event says otherwise: with a GSTIN you can choose “Prices plus
        GST” for an event in its editor’s GST section, and buyers then see “₹750 + GST” and pay the GST at
        checkout.
      </p>
      <FormError message={formError} />
      {saved && <FormNotice>{saved}</FormNotice>}
      <SubmitButton busy={form.formState.isSubmitting} busyText="Saving...">
        Save profile
      </SubmitButton>
    </form>
  );
}

/** The accountant's CSV: a plain download link per month. */
function MonthlyCsv() {
  return (
    <section aria-labelledby="invoices-csv-heading" className="rounded-2xl border border-gray-200 p-5 sm:p-6">
      <h2 id="invoices-csv-heading" className="text-xl font-bold">
        Invoices for your accountant
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        One month of invoices and credit notes as CSV: B2B rows with the buyer's GSTIN, B2C totals by state
        and rate. Or as GSTR-1: a ZIP of the GST offline tool's tables (b2b, b2cl, b2cs, cdnr, cdnur, exemp,
        hsn, docs) to import.
      </p>
      <InvoiceMonthDownloads base="/api/invoices" />
    </section>
  );
}
