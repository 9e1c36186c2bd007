import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatLongDate } from '../../shared/dates.ts';
import { type GrantRoleInput, GrantRoleInput as GrantRoleSchema } from '../../shared/organiser-schemas.ts';
import {
  FormError,
  FormNotice,
  fieldBinder,
  SelectField,
  SubmitButton,
  TextField,
} from '../components/auth-fields.tsx';
import { NotAllowedScreen } from '../components/not-allowed.tsx';
import { LoadingText } from '../components/status-screens.tsx';
import { messageOf } from '../lib/auth.ts';
import { fieldErrorsOf, type RouterOutputs, trpc } from '../lib/trpc.ts';

export const Route = createLazyRoute('/admin')({ component: AdminPage });

type OrganiserRequest = RouterOutputs['admin']['organiserRequests'][number];

function AdminPage() {
  const access = trpc.console.access.useQuery();
  if (access.isPending) return <LoadingText />;
  if (access.data?.role !== 'admin') return <NotAllowedScreen />;
  return (
    <section className="mx-auto w-full max-w-6xl space-y-10 px-4 py-8">
      <h1 className="text-3xl font-extrabold text-gray-900">Admin</h1>
      <OrganiserRequests />
      <GrantOrganiser />
    </section>
  );
}

function OrganiserRequests() {
  const requests = trpc.admin.organiserRequests.useQuery();
  return (
    <section aria-labelledby="requests-heading">
      <h2 id="requests-heading" className="text-xl font-bold text-gray-900">
        Organiser requests
      </h2>
      {requests.isPending ? (
        <LoadingText />
      ) : !requests.data || requests.data.length === 0 ? (
        <p className="mt-3 text-gray-600">No requests yet.</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {requests.data.map((request) => (
            <RequestCard key={request.id} request={request} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RequestCard({ request }: { request: OrganiserRequest }) {
  const utils = trpc.useUtils();
  const done = { onSettled: () => utils.admin.organiserRequests.invalidate() };
  const approve = trpc.admin.approveRequest.useMutation(done);
  const decline = trpc.admin.declineRequest.useMutation(done);
  const busy = approve.isPending || decline.isPending;
  const error = approve.error ?? decline.error;
  const headingId = `request-${request.id}`;
  return (
    <li aria-labelledby={headingId} className="rounded-xl border border-gray-200 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={headingId} className="font-bold text-gray-900">
            {request.organisationName}
          </h3>
          <p className="text-sm text-gray-700">
            {request.requesterName ?? request.requesterEmail} · {request.requesterEmail} ·{' '}
            {request.contactPhone}
          </p>
          <p className="text-sm text-gray-700">
            {request.city} · GSTIN {request.gstin ?? 'not given'} · sent {formatLongDate(request.createdAt)}
          </p>
          <p className="mt-2 whitespace-pre-line text-gray-800">{request.whatTheyRun}</p>
        </div>
        {request.status === 'pending' ? (
          <div className="flex gap-2">
            <button
              type="button"
              disabled={busy}
              onClick={() => approve.mutate({ requestId: request.id })}
              aria-label={`Approve ${request.organisationName}`}
              className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
            >
              Approve
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => decline.mutate({ requestId: request.id })}
              aria-label={`Decline ${request.organisationName}`}
              className="rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50 disabled:opacity-60"
            >
              Decline
            </button>
          </div>
        ) : (
          <p className="rounded-full bg-gray-100 px-3 py-1 text-sm font-semibold text-gray-800">
            {request.status === 'approved' ? 'Approved' : 'Declined'}
          </p>
        )}
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {messageOf(error, 'Something went wrong. Please try again.')}
        </p>
      )}
    </li>
  );
}

const ROLE_LABELS = { organiser: 'Organiser', none: 'No organiser rights' } as const;

function GrantOrganiser() {
  const grant = trpc.admin.setOrganiser.useMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<GrantRoleInput, unknown, z.output<typeof GrantRoleSchema>>({
    resolver: zodResolver(GrantRoleSchema),
    defaultValues: { email: '', role: 'organiser' },
  });
  const field = fieldBinder(form, () => {
    setFormError(null);
    setDone(null);
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await grant.mutateAsync(values);
      setDone(
        values.role === 'organiser'
          ? `${values.email} can now list events.`
          : `${values.email} no longer has organiser rights.`,
      );
      form.reset();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.email) form.setError('email', { message: fields.email });
      else setFormError(messageOf(error, 'Something went wrong. Please try again.'));
    }
  });
  return (
    <section aria-labelledby="grant-heading" className="max-w-md">
      <h2 id="grant-heading" className="text-xl font-bold text-gray-900">
        Organiser rights
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        Give an account organiser rights without a request, or take them away.
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <TextField
          label="Account e-mail"
          type="email"
          autoComplete="off"
          maxLength={254}
          {...field('email')}
        />
        <SelectField
          label="Rights"
          placeholder="Choose"
          options={['organiser', 'none'] as const}
          optionLabels={ROLE_LABELS}
          {...field('role')}
        />
        <FormError message={formError} />
        {done && <FormNotice>{done}</FormNotice>}
        <SubmitButton busy={form.formState.isSubmitting} busyText="Saving...">
          Save
        </SubmitButton>
      </form>
    </section>
  );
}
