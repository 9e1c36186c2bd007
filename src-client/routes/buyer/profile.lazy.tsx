import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  type ChangePasswordInput,
  COUNTRIES,
  changePasswordSchema,
  GENDERS,
  type ProfileInput,
  profileSchema,
} from '../../../shared/auth-schemas.ts';
import { MOBILE_INPUT_MAX } from '../../../shared/indian-mobile.ts';
import { INDIAN_STATES, isIndianState } from '../../../shared/states.ts';
import {
  FormError,
  FormNotice,
  fieldBinder,
  PasswordField,
  SelectField,
  SubmitButton,
  TextAreaField,
  TextField,
} from '../../components/auth-fields.tsx';
import { LoadFailed, LoadingText } from '../../components/status-screens.tsx';
import { VerifyEmailNotice } from '../../components/verify-email-notice.tsx';
import { useCurrentUser, useSessionChange } from '../../lib/auth.ts';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/_account/profile')({ component: ProfilePage });

const STATE_LABELS = Object.fromEntries(INDIAN_STATES.map((s) => [s, s])) as Record<
  (typeof INDIAN_STATES)[number],
  string
>;

type Account = NonNullable<RouterOutputs['auth']['me']>;

const GENDER_LABELS: Record<(typeof GENDERS)[number], string> = {
  male: 'Male',
  female: 'Female',
  other: 'Other',
};
const COUNTRY_LABELS: Record<(typeof COUNTRIES)[number], string> = { india: 'India', us: 'US', uk: 'UK' };

function ProfilePage() {
  const me = useCurrentUser();
  if (me.isPending) return <LoadingText text="Loading user data..." />;
  if (me.isError) return <LoadFailed title="My Profile" message="Failed to load user data" />;
  // The route guard sent signed-out visitors to /login; this covers a session ending while here.
  if (!me.data) return <p className="px-4 py-16 text-center text-gray-700">User data not found</p>;
  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="sr-only">My Profile</h1>
      <ProfileCard account={me.data} />
      {!me.data.isEmailVerified && <VerifyEmailNotice email={me.data.email} at="profile" />}
      <ChangePassword hasPassword={me.data.hasPassword} />
    </section>
  );
}

function toForm(account: Account): ProfileInput {
  return {
    name: account.name ?? '',
    phone: account.phone ?? '',
    gender: account.gender ?? '',
    country: account.country ?? '',
    // A state typed before the profile used the list is not one of its choices: it starts unchosen.
    state: account.state && isIndianState(account.state) ? account.state : '',
    about: account.about ?? '',
  };
}

function ProfileCard({ account }: { account: Account }) {
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const update = trpc.auth.updateProfile.useMutation();
  const form = useForm<ProfileInput, unknown, z.output<typeof profileSchema>>({
    resolver: zodResolver(profileSchema),
    reValidateMode: 'onSubmit',
    values: toForm(account),
    resetOptions: { keepDirtyValues: true },
  });

  const fieldProps = fieldBinder(form, () => setFormError(null));
  const editable = (name: keyof ProfileInput) => ({ ...fieldProps(name), disabled: !editing });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const updated = await update.mutateAsync(values);
      utils.auth.me.setData(undefined, updated);
      setEditing(false);
      setSaved(true);
    } catch (error) {
      setFormError(showServerErrors(form, error, Object.keys(toForm(account)) as (keyof ProfileInput)[]));
    }
  });

  const editButton = useRef<HTMLButtonElement>(null);
  const cancel = () => {
    // reset() applies the form's resetOptions too, whose keepDirtyValues kept what was typed: Cancel
    // (and Esc) must throw the edits away.
    form.reset(toForm(account), { keepDirtyValues: false });
    setFormError(null);
    setEditing(false);
  };
  // The edit button comes back when editing ends: focus returns to it, not to the page's top.
  const returnFocus = useRef(false);
  useEffect(() => {
    if (!editing && returnFocus.current) editButton.current?.focus();
    returnFocus.current = editing;
  }, [editing]);

  const initial = (account.name?.trim()[0] ?? 'U').toUpperCase();
  return (
    <div className="rounded-xl border border-gray-200 bg-white shadow-sm">
      <div className="flex flex-col items-start gap-4 border-b border-gray-200 p-6 sm:flex-row sm:items-center">
        <div
          aria-hidden="true"
          className="flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-brand-600 text-2xl font-bold text-white"
        >
          {initial}
        </div>
        <div className="min-w-0 flex-1">
          <p className="truncate text-xl font-bold">{account.name || 'Your Name'}</p>
          <p className="truncate text-gray-600">{account.email || 'your@email.com'}</p>
        </div>
        {!editing && (
          <button
            ref={editButton}
            type="button"
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
            className="rounded-md border border-brand-600 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
          >
            Edit Profile
          </button>
        )}
      </div>

      <form
        noValidate
        onSubmit={onSubmit}
        // Esc cancels the edit, as Cancel does (issue 17).
        onKeyDown={(e) => {
          if (e.key === 'Escape' && editing && !update.isPending) {
            e.preventDefault();
            cancel();
          }
        }}
        className="space-y-4 p-6"
      >
        {saved && <FormNotice>Profile saved</FormNotice>}
        <FormError message={formError} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Name" autoComplete="name" {...editable('name')} />
          <TextField
            label="Email"
            type="email"
            value={account.email}
            readOnly
            disabled
            hint="Your sign-in email can't be changed here."
          />
          <TextField
            label="Phone Number"
            type="tel"
            autoComplete="tel-national"
            inputMode="tel"
            maxLength={MOBILE_INPUT_MAX}
            {...editable('phone')}
          />
          <SelectField
            label="Gender"
            placeholder="Select gender"
            options={GENDERS}
            optionLabels={GENDER_LABELS}
            {...editable('gender')}
          />
          <SelectField
            label="Country"
            placeholder="Select country"
            options={COUNTRIES}
            optionLabels={COUNTRY_LABELS}
            {...editable('country')}
          />
          <SelectField
            label="State"
            placeholder="Select your state"
            autoComplete="address-level1"
            options={INDIAN_STATES}
            optionLabels={STATE_LABELS}
            {...editable('state')}
          />
        </div>
        <TextAreaField label="About You" rows={4} {...editable('about')} />
        {editing && (
          <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={cancel}
              className="rounded-md border border-gray-300 px-4 py-2.5 font-semibold text-gray-800 hover:bg-gray-50"
            >
              Cancel
            </button>
            <div className="sm:w-40">
              <SubmitButton busy={update.isPending} busyText="Saving...">
                Save
              </SubmitButton>
            </div>
          </div>
        )}
      </form>
    </div>
  );
}

function ChangePassword({ hasPassword }: { hasPassword: boolean }) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { signedIn } = useSessionChange();
  const change = trpc.auth.changePassword.useMutation();
  const form = useForm<ChangePasswordInput, unknown, z.output<typeof changePasswordSchema>>({
    resolver: zodResolver(changePasswordSchema),
    reValidateMode: 'onSubmit',
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });

  const fieldProps = fieldBinder(form);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      signedIn(await change.mutateAsync(values));
      form.reset();
      setOpen(false);
      setDone(true);
    } catch (error) {
      setFormError(showServerErrors(form, error, ['currentPassword', 'password', 'confirmPassword']));
    }
  });

  return (
    <div className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-bold">Password</h2>
        {!open && (
          <button
            type="button"
            onClick={() => {
              setDone(false);
              setOpen(true);
            }}
            className="rounded-md border border-gray-300 px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50"
          >
            {hasPassword ? 'Change Password' : 'Set a Password'}
          </button>
        )}
      </div>
      {done && (
        <p role="status" className="mt-3 text-green-800">
          Password changed. You have been signed out on your other devices.
        </p>
      )}
      {open && (
        <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
          <FormError message={formError} />
          {hasPassword && (
            <PasswordField
              label="Current Password"
              autoComplete="current-password"
              {...fieldProps('currentPassword')}
            />
          )}
          <PasswordField label="New Password" autoComplete="new-password" {...fieldProps('password')} />
          <PasswordField
            label="Confirm New Password"
            autoComplete="new-password"
            {...fieldProps('confirmPassword')}
          />
          <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={() => {
                form.reset();
                setFormError(null);
                setOpen(false);
              }}
              className="rounded-md border border-gray-300 px-4 py-2.5 font-semibold text-gray-800 hover:bg-gray-50"
            >
              Cancel
            </button>
            <div className="sm:w-48">
              <SubmitButton busy={change.isPending} busyText="Saving...">
                Save Password
              </SubmitButton>
            </div>
          </div>
        </form>
      )}
    </div>
  );
}
