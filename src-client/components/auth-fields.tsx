import { type ComponentProps, forwardRef, type ReactNode, useId, useState } from 'react';
import {
  type FieldValues,
  type FieldError as FormFieldError,
  get,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import { CITIES } from '../../shared/cities.ts';
import { trpc } from '../lib/trpc.ts';
import { LineIcon } from './line-icon.tsx';

// Form pieces shared by the account screens (sign in, sign up, profile, password reset): labelled
// inputs, drop-downs and text areas with their errors below them, a password input with a show/hide
// toggle, and the form-wide error and success messages.

const inputClass =
  'mt-1 block w-full rounded-md border px-3 py-2 text-base shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:bg-gray-100 disabled:text-gray-600';

type InputProps = ComponentProps<'input'> & { label: string; error?: string; hint?: ReactNode };

/**
 * Wires a react-hook-form form to the fields below: `field(name)` is the registration plus the field's
 * error message. Editing a field clears its error (spec §4) and calls `onEdit`, e.g. to clear the
 * form-wide error too.
 */
export function fieldBinder<T extends FieldValues, Transformed>(
  form: UseFormReturn<T, unknown, Transformed>,
  onEdit?: () => void,
) {
  return (name: Path<T>) => ({
    error: (get(form.formState.errors, name) as FormFieldError | undefined)?.message,
    ...form.register(name, {
      onChange: () => {
        form.clearErrors(name);
        onEdit?.();
      },
    }),
  });
}

export const TextField = forwardRef<HTMLInputElement, InputProps>(function TextField(
  { label, error, hint, id, className, ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <LabelledField inputId={inputId} label={label} error={error} hint={hint} className={className}>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        className={`${inputClass} ${error ? 'border-red-500' : 'border-gray-300'}`}
        {...rest}
      />
    </LabelledField>
  );
});

/** The account's email address: email keyboard and autofill. */
export function EmailField(props: Omit<ComponentProps<typeof TextField>, 'label' | 'type'>) {
  return <TextField label="Email" type="email" autoComplete="email" inputMode="email" {...props} />;
}

export const PasswordField = forwardRef<HTMLInputElement, Omit<InputProps, 'type'>>(function PasswordField(
  { label, error, id, className, ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const [visible, setVisible] = useState(false);
  return (
    <LabelledField inputId={inputId} label={label} error={error} className={className}>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          className={`${inputClass} pr-12 ${error ? 'border-red-500' : 'border-gray-300'}`}
          {...rest}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          aria-controls={inputId}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center text-gray-500 hover:text-gray-800"
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
    </LabelledField>
  );
});

/** A labelled drop-down whose first, empty option is `placeholder`. */
export function SelectField<T extends string>({
  label,
  error,
  placeholder,
  options,
  optionLabels,
  className,
  ref,
  ...rest
}: Omit<ComponentProps<'select'>, 'children'> & {
  label: string;
  error?: string;
  placeholder: string;
  options: readonly T[];
  optionLabels: Record<T, string>;
}) {
  const id = useId();
  return (
    <LabelledField inputId={id} label={label} error={error} className={className}>
      <select
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        className={`${inputClass} border-gray-300 bg-white`}
        {...rest}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabels[option]}
          </option>
        ))}
      </select>
    </LabelledField>
  );
}

const CITY_NAMES = CITIES.map((c) => c.name);
const CITY_LABELS = Object.fromEntries(CITY_NAMES.map((name) => [name, name])) as Record<string, string>;

/** A drop-down of the city list (shared/cities.ts): where an organiser is based, where an event is held. */
export function CityField(props: Omit<ComponentProps<'select'>, 'children'> & { error?: string }) {
  return (
    <SelectField
      label="City"
      placeholder="Choose a city"
      options={CITY_NAMES}
      optionLabels={CITY_LABELS}
      {...props}
    />
  );
}

export function TextAreaField({
  label,
  error,
  className,
  ref,
  ...rest
}: ComponentProps<'textarea'> & { label: string; error?: string }) {
  const id = useId();
  return (
    <LabelledField inputId={id} label={label} error={error} className={className}>
      <textarea
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        className={`${inputClass} border-gray-300`}
        {...rest}
      />
    </LabelledField>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {message}
    </p>
  );
}

/** The form-wide error (e.g. 'Invalid email or password'), announced to screen readers. */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </div>
  );
}

/** Why the visitor is on this page (e.g. sent from checkout to sign in); nothing when there is no reason. */
export function SignInReason({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p
      data-testid="sign-in-reason"
      className="mb-4 rounded-md border border-gray-200 bg-gray-50 px-3 py-2 text-sm text-gray-800"
    >
      {text}
    </p>
  );
}

/** A form's success message (e.g. 'Profile saved'), announced to screen readers. */
export function FormNotice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-green-900">
      {children}
    </p>
  );
}

export function SubmitButton({
  busy,
  busyText,
  children,
}: {
  busy: boolean;
  busyText: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="w-full rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-70"
    >
      {busy ? busyText : children}
    </button>
  );
}

/** 'or' and 'Continue with Google', shown only when the server has Google sign-in configured. */
export function GoogleSignIn({ redirect, disabled }: { redirect?: string; disabled: boolean }) {
  const googleEnabled = trpc.auth.googleEnabled.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
  if (!googleEnabled.data) return null;
  return (
    <>
      <OrDivider />
      <GoogleButton redirect={redirect} disabled={disabled} />
    </>
  );
}

/** A centred card holding an account form. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="mb-6 text-center text-2xl font-bold">{title}</h1>
        {children}
      </div>
    </section>
  );
}

/** 'Continue with Google': a full-page visit to the server's OAuth start, which comes back signed in. */
function GoogleButton({ redirect, disabled }: { redirect?: string; disabled?: boolean }) {
  const href = `/api/auth/google${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`;
  return (
    <a
      href={href}
      aria-disabled={disabled || undefined}
      onClick={(e) => {
        if (disabled) e.preventDefault();
      }}
      className="flex w-full items-center justify-center gap-2 rounded-md border border-gray-300 bg-white px-4 py-2.5 font-semibold text-gray-800 hover:bg-gray-50"
    >
      <GoogleIcon />
      Continue with Google
    </a>
  );
}

function OrDivider() {
  return (
    <div className="my-5 flex items-center gap-3 text-sm text-gray-500">
      <span className="h-px flex-1 bg-gray-200" />
      or
      <span className="h-px flex-1 bg-gray-200" />
    </div>
  );
}

/** The label above a form control, and its hint or error below it (the error's id is `<inputId>-error`). */
function LabelledField({
  inputId,
  label,
  error,
  hint,
  className,
  children,
}: {
  inputId: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={inputId} className="block text-sm font-medium text-gray-800">
        {label}
      </label>
      {children}
      {hint && !error && <p className="mt-1 text-xs text-gray-500">{hint}</p>}
      <FieldError id={`${inputId}-error`} message={error} />
    </div>
  );
}

function EyeIcon() {
  return (
    <LineIcon className="h-5 w-5">
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </LineIcon>
  );
}

function EyeOffIcon() {
  return (
    <LineIcon className="h-5 w-5">
      <path d="M3 3l18 18" />
      <path d="M10.6 5.1A10.8 10.8 0 0 1 12 5c6.5 0 10 7 10 7a17.6 17.6 0 0 1-3.2 4.1M6.6 6.6C3.9 8.4 2 12 2 12s3.5 7 10 7a9.7 9.7 0 0 0 5.4-1.6" />
      <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2" />
    </LineIcon>
  );
}

function GoogleIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" className="h-5 w-5">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}
