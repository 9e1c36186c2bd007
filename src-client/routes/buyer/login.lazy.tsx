import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { MESSAGES, type SignInInput, signInSchema } from '../../../shared/auth-schemas.ts';
import {
  AuthCard,
  EmailField,
  FormError,
  fieldBinder,
  GoogleSignIn,
  PasswordField,
  SignInReason,
  SubmitButton,
} from '../../components/auth-fields.tsx';
import { afterSignInPath, useSessionChange } from '../../lib/auth.ts';
import { definedOnly } from '../../lib/search-params.ts';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { signInReason } from '../../lib/sign-in-reason.ts';
import { trpc } from '../../lib/trpc.ts';
import { loginRoute } from './login.tsx';

export const Route = createLazyRoute('/_buyer/login')({ component: LoginPage });

const GOOGLE_ERRORS: Record<string, string> = {
  google: MESSAGES.googleFailed,
  'google-unverified': MESSAGES.googleEmailUnverified,
  'google-linked': MESSAGES.googleOtherAccount,
};

function LoginPage() {
  const search = loginRoute.useSearch();
  const navigate = useNavigate();
  const { signedIn } = useSessionChange();
  const [formError, setFormError] = useState<string | null>(
    search.error ? (GOOGLE_ERRORS[search.error] ?? MESSAGES.googleFailed) : null,
  );
  const form = useForm<SignInInput, unknown, z.output<typeof signInSchema>>({
    resolver: zodResolver(signInSchema),
    reValidateMode: 'onSubmit',
    defaultValues: { email: '', password: '' },
  });
  const signIn = trpc.auth.signIn.useMutation();

  // §4: editing a field clears that field's error and the general error.
  const fieldProps = fieldBinder(form, () => setFormError(null));

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const account = await signIn.mutateAsync(values);
      signedIn(account);
      await navigate({ href: afterSignInPath(search.redirect), replace: true });
    } catch (error) {
      setFormError(showServerErrors(form, error, ['email', 'password'], MESSAGES.signInDefault));
    }
  });

  const busy = signIn.isPending;
  return (
    <AuthCard title="Sign In">
      <SignInReason text={signInReason(search.redirect, 'sign-in')} />
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <FormError message={formError} />
        <EmailField {...fieldProps('email')} />
        <PasswordField label="Password" autoComplete="current-password" {...fieldProps('password')} />
        <div className="flex justify-end">
          <Link to="/forgot-password" className="text-sm font-medium text-brand-700 hover:underline">
            Forgot Password?
          </Link>
        </div>
        <SubmitButton busy={busy} busyText="Signing in...">
          Sign In
        </SubmitButton>
      </form>
      <p className="mt-4 text-center text-sm text-gray-700">
        Don't have an account?{' '}
        <Link
          to="/SignUp"
          search={definedOnly({ redirect: search.redirect })}
          className="font-semibold text-brand-700 hover:underline"
        >
          Sign up
        </Link>
      </p>
      <GoogleSignIn redirect={search.redirect} disabled={busy} />
    </AuthCard>
  );
}
