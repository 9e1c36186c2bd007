import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { type ForgotPasswordInput, forgotPasswordSchema } from '../../../shared/auth-schemas.ts';
import {
  AuthCard,
  EmailField,
  FormError,
  FormNotice,
  fieldBinder,
  SubmitButton,
} from '../../components/auth-fields.tsx';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/forgot-password')({ component: ForgotPasswordPage });

function ForgotPasswordPage() {
  const [formError, setFormError] = useState<string | null>(null);
  const request = trpc.auth.requestPasswordReset.useMutation();
  const form = useForm<ForgotPasswordInput, unknown, z.output<typeof forgotPasswordSchema>>({
    resolver: zodResolver(forgotPasswordSchema),
    reValidateMode: 'onSubmit',
    defaultValues: { email: '' },
  });

  const fieldProps = fieldBinder(form, () => setFormError(null));

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await request.mutateAsync(values);
    } catch (error) {
      setFormError(showServerErrors(form, error, ['email']));
    }
  });

  return (
    <AuthCard title="Forgot Password">
      {request.data ? (
        <div className="space-y-4">
          <FormNotice>{request.data.message}</FormNotice>
          <p className="text-sm text-gray-700">
            The link is valid for 30 minutes. Check your spam folder too.
          </p>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <p className="text-sm text-gray-700">
            Enter the email address of your account and we'll send you a link to set a new password.
          </p>
          <FormError message={formError} />
          <EmailField {...fieldProps('email')} />
          <SubmitButton busy={request.isPending} busyText="Sending...">
            Send Reset Link
          </SubmitButton>
        </form>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="font-semibold text-brand-700 hover:underline">
          Back to Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
