import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ContactMessageInput } from '../../../shared/catalog-schemas.ts';
import { serverRefusalOf } from '../../lib/server-field-errors.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/Contact_Us')({ component: ContactUsPage });

const SUPPORT_EMAIL = 'support@jalsa.local';
const SUPPORT_PHONE = '+91 80 4718 2500';
const OFFICE_ADDRESS = '3rd Floor, 100 Feet Road, Indiranagar, Bengaluru 560038';

type FormInput = z.input<typeof ContactMessageInput>;

function ContactUsPage() {
  const send = trpc.contact.send.useMutation();
  const form = useForm<FormInput, unknown, z.output<typeof ContactMessageInput>>({
    resolver: zodResolver(ContactMessageInput),
    defaultValues: { firstName: '', lastName: '', email: '', mobile: '', message: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const serverErrors = serverRefusalOf(send.error).fields;
  const errorOf = (field: keyof FormInput) => errors[field]?.message ?? serverErrors[field];

  const onSubmit = form.handleSubmit(async (values) => {
    await send.mutateAsync(values).then(
      () => form.reset(),
      () => undefined,
    );
  });

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-extrabold text-gray-900">Contact Us</h1>
      <p className="mt-2 text-gray-700">
        Questions about a booking, an event or listing your own? Write to us.
      </p>
      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_340px]">
        <form
          onSubmit={onSubmit}
          noValidate
          className="space-y-4 rounded-2xl border border-gray-200 p-5 sm:p-6"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="First Name" error={errorOf('firstName')}>
              {(props) => <input {...props} {...form.register('firstName')} autoComplete="given-name" />}
            </Field>
            <Field label="Last Name" error={errorOf('lastName')}>
              {(props) => <input {...props} {...form.register('lastName')} autoComplete="family-name" />}
            </Field>
            <Field label="Email" error={errorOf('email')}>
              {(props) => <input {...props} {...form.register('email')} type="email" autoComplete="email" />}
            </Field>
            <Field label="Mobile number" error={errorOf('mobile')}>
              {(props) => (
                <input
                  {...props}
                  {...form.register('mobile')}
                  type="tel"
                  inputMode="numeric"
                  maxLength={10}
                  autoComplete="tel-national"
                />
              )}
            </Field>
          </div>
          <Field label="Message" error={errorOf('message')}>
            {(props) => <textarea {...props} {...form.register('message')} rows={5} />}
          </Field>
          <label className="flex items-center gap-2 text-sm text-gray-800">
            {/* Spec §2 lists this checkbox without a behaviour; it stays on the page only. */}
            <input type="checkbox" name="changeHeading" className="h-4 w-4 accent-brand-600" />
            Change your heading
          </label>
          {send.isSuccess && (
            <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-800">
              Thank you! Your message has been sent. We will get back to you soon.
            </p>
          )}
          {send.error && Object.keys(serverErrors).length === 0 && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {send.error.message}
            </p>
          )}
          <button
            type="submit"
            disabled={isSubmitting}
            className="rounded-lg bg-brand-600 px-6 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
          >
            {isSubmitting ? 'Sending...' : 'Submit'}
          </button>
        </form>
        <div className="space-y-4">
          <InfoCard title="Email Us">
            <a href={`mailto:${SUPPORT_EMAIL}`} className="text-brand-700 underline">
              {SUPPORT_EMAIL}
            </a>
          </InfoCard>
          <InfoCard title="Visit us">
            <p>{OFFICE_ADDRESS}</p>
            <a
              href={`https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(OFFICE_ADDRESS)}`}
              target="_blank"
              rel="noopener noreferrer"
              className="mt-1 inline-block font-semibold text-brand-700 underline"
            >
              Get Direction
            </a>
          </InfoCard>
          <InfoCard title="Give us a call">
            <a href={`tel:${SUPPORT_PHONE.replace(/\s/g, '')}`} className="text-brand-700 underline">
              {SUPPORT_PHONE}
            </a>
            <p className="text-sm text-gray-600">Monday to Saturday, 10 AM to 7 PM</p>
          </InfoCard>
        </div>
      </div>
    </section>
  );
}

const inputClass =
  'mt-1 w-full rounded-lg border px-3 py-2 font-normal focus:outline-none focus:ring-2 focus:ring-brand-100';

function Field({
  label,
  error,
  children,
}: {
  label: string;
  error: string | undefined;
  children: (props: {
    className: string;
    'aria-invalid': boolean;
    'aria-describedby'?: string;
    id: string;
  }) => ReactNode;
}) {
  const id = `contact-${label.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-gray-800">
        {label}
      </label>
      {children({
        id,
        className: `${inputClass} ${error ? 'border-red-600' : 'border-gray-300 focus:border-brand-500'}`,
        'aria-invalid': Boolean(error),
        ...(error && { 'aria-describedby': `${id}-error` }),
      })}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

function InfoCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-2xl bg-gray-50 p-5">
      <h2 className="font-bold text-gray-900">{title}</h2>
      <div className="mt-1 text-gray-800">{children}</div>
    </div>
  );
}
