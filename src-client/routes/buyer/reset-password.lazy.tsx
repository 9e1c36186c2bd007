import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { MESSAGES, type ResetPasswordInput, resetPasswordSchema } from '../../../shared/auth-schemas.ts';
import {
  AuthCard,
  FormError,
  FormNotice,
  fieldBinder,
  PasswordField,
  SubmitButton,
} from '../../components/auth-fields.tsx';
import { useSessionChange } from '../../lib/auth.ts';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { resetPasswordRoute } from './reset-password.tsx';

export const Route = createLazyRoute('/_buyer/reset-password')({ component: ResetPasswordPage });

function ResetPasswordPage() {
  const { token } = resetPasswordRoute.useSearch();
  const { signedOut } = useSessionChange();
  const [formError, setFormError] = useState<string | null>(null);
  const reset = trpc.auth.resetPassword.useMutation();
  // Ask on opening whether the link still works, rather than after a new password has been typed.
  const link = trpc.auth.resetLinkStatus.useQuery(
    { token: token ?? '' },
    { enabled: !!token, staleTime: Number.POSITIVE_INFINITY },
  );
  const form = useForm<ResetPasswordInput, unknown, z.output<typeof resetPasswordSchema>>({
    resolver: zodResolver(resetPasswordSchema),
    reValidateMode: 'onSubmit',
    defaultValues: { token: token ?? '', password: '', confirmPassword: '' },
  });

  // Not after a successful reset: the link is used up then, and the page says the password changed.
  if (!token || (link.data?.usable === false && !reset.isSuccess)) {
    return (
      <AuthCard title="Reset Password">
        <FormError message={MESSAGES.resetLinkInvalid} />
        <RequestNewLink />
      </AuthCard>
    );
  }

  if (reset.isSuccess) {
    return (
      <AuthCard title="Reset Password">
        <FormNotice>
          Your password has been changed and you have been signed out everywhere. Sign in with your new
          password.
        </FormNotice>
        <Link
          to="/login"
          className="mt-6 block rounded-md bg-brand-600 px-4 py-2.5 text-center font-semibold text-white hover:bg-brand-700"
        >
          Sign In
        </Link>
      </AuthCard>
    );
  }

  const fieldProps = fieldBinder(form);
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await reset.mutateAsync(values);
      // Every session of the account has ended, possibly including this browser's.
      signedOut();
    } catch (error) {
      setFormError(showServerErrors(form, error, ['password', 'confirmPassword']));
    }
  });

  const linkDead = formError === MESSAGES.resetLinkInvalid;
  return (
    <AuthCard title="Reset Password">
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <p className="text-sm text-gray-700">Choose a new password of at least 6 characters.</p>
        <FormError message={formError} />
        <PasswordField label="New Password" autoComplete="new-password" {...fieldProps('password')} />
        <PasswordField
          label="Confirm New Password"
          autoComplete="new-password"
          {...fieldProps('confirmPassword')}
        />
        <SubmitButton busy={reset.isPending} busyText="Saving...">
          Set New Password
        </SubmitButton>
      </form>
      {linkDead && <RequestNewLink />}
    </AuthCard>
  );
}

function RequestNewLink() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
        Request a new reset link
      </Link>
    </p>
  );
}
