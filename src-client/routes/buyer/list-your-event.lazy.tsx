import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatLongDate } from '../../../shared/dates.ts';
import {
  OrganiserRequestInput,
  type OrganiserRequestInput as RequestFormInput,
} from '../../../shared/organiser-schemas.ts';
import {
  CityField,
  FormError,
  FormNotice,
  fieldBinder,
  SubmitButton,
  TextAreaField,
  TextField,
} from '../../components/auth-fields.tsx';
import { SellingCosts } from '../../components/console/selling-costs.tsx';
import { LoadingText } from '../../components/status-screens.tsx';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/_account/list-your-event')({ component: ListYourEventPage });

const FIELDS = ['organisationName', 'contactPhone', 'city', 'whatTheyRun', 'gstin'] as const;

function ListYourEventPage() {
  const access = trpc.console.access.useQuery();
  const mine = trpc.organiserRequests.mine.useQuery();
  if (access.isPending || mine.isPending) return <LoadingText />;
  const canOrganise = access.data && access.data.role !== 'none';
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-extrabold text-gray-900">List your Event</h1>
      <p className="mt-2 text-gray-700">
        Sell tickets to your own concerts, shows, matches and workshops on Jalsa. Tell us about your
        organisation; an admin reviews every request and we e-mail you the answer.
      </p>
      <div className="mt-6">
        {canOrganise ? (
          <FormNotice>
            You can already list events.{' '}
            <Link to="/organiser" className="font-semibold underline">
              Open the organiser console
            </Link>
          </FormNotice>
        ) : mine.data?.status === 'pending' ? (
          <FormNotice>
            Your request for {mine.data.organisationName} (sent {formatLongDate(mine.data.createdAt)}) is
            waiting for an admin. We will e-mail you when it is decided.
          </FormNotice>
        ) : (
          <>
            {mine.data?.status === 'declined' && (
              <p className="mb-4 rounded-md bg-gray-50 px-3 py-2 text-sm text-gray-700">
                Your earlier request for {mine.data.organisationName} was declined. You may send a new one.
              </p>
            )}
            <RequestForm />
          </>
        )}
      </div>
      <div className="mt-6">
        <SellingCosts />
      </div>
    </section>
  );
}

function RequestForm() {
  const utils = trpc.useUtils();
  const submit = trpc.organiserRequests.submit.useMutation({
    onSuccess: () => utils.organiserRequests.mine.invalidate(),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<RequestFormInput, unknown, z.output<typeof OrganiserRequestInput>>({
    resolver: zodResolver(OrganiserRequestInput),
    defaultValues: { organisationName: '', contactPhone: '', city: '', whatTheyRun: '', gstin: '' },
  });
  const field = fieldBinder(form, () => setFormError(null));

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await submit.mutateAsync(values);
    } catch (error) {
      setFormError(showServerErrors(form, error, FIELDS));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-2xl border border-gray-200 p-5 sm:p-6">
      <TextField
        label="Organisation name"
        autoComplete="organization"
        maxLength={120}
        {...field('organisationName')}
      />
      <TextField
        label="Contact phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        maxLength={20}
        {...field('contactPhone')}
      />
      <CityField {...field('city')} />
      <TextAreaField label="What do you run?" rows={4} maxLength={1000} {...field('whatTheyRun')} />
      <TextField
        label="GSTIN (optional)"
        autoCapitalize="characters"
        maxLength={15}
        hint="15 characters, e.g. 27AAPFU0939F1ZV. Once approved, it and your organisation become your invoicing details; without one, no GST invoice is issued for your tickets."
        {...field('gstin')}
      />
      <FormError message={formError} />
      <SubmitButton busy={form.formState.isSubmitting} busyText="Sending...">
        Send request
      </SubmitButton>
    </form>
  );
}
