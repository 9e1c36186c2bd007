import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { MESSAGES, type SignUpInput, signUpSchema } from '../../../shared/auth-schemas.ts';
import { SIGN_UP_VERIFY_NOTE } from '../../../shared/hoarding-messages.ts';
import { MOBILE_INPUT_MAX } from '../../../shared/indian-mobile.ts';
import {
  AuthCard,
  EmailField,
  FieldError,
  FormError,
  fieldBinder,
  GoogleSignIn,
  PasswordField,
  SignInReason,
  SubmitButton,
  TextField,
} from '../../components/auth-fields.tsx';
import { afterSignInPath, useSessionChange } from '../../lib/auth.ts';
import { definedOnly } from '../../lib/search-params.ts';
import { serverRefusalOf, showServerErrors } from '../../lib/server-field-errors.ts';
import { signInReason } from '../../lib/sign-in-reason.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/SignUp')({ component: SignUpPage });

const FIELDS = ['name', 'email', 'mobile', 'password', 'confirmPassword', 'acceptTerms'] as const;

function SignUpPage() {
  const navigate = useNavigate();
  const search = Route.useSearch();
  const { signedIn } = useSessionChange();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<SignUpInput, unknown, z.output<typeof signUpSchema>>({
    resolver: zodResolver(signUpSchema),
    reValidateMode: 'onSubmit',
    defaultValues: { name: '', email: '', mobile: '', password: '', confirmPassword: '', acceptTerms: false },
  });
  const signUp = trpc.auth.signUp.useMutation();

  // §4: editing a field clears its error; the terms error clears when the box is toggled.
  const fieldProps = fieldBinder(form);
  const { error: termsError, ...acceptTerms } = fieldProps('acceptTerms');

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const account = await signUp.mutateAsync(values);
      signedIn(account);
      await navigate({ href: afterSignInPath(search.redirect), replace: true });
    } catch (error) {
      showServerErrors(form, error, FIELDS);
      // §8: the general error shows when no email or password field error exists.
      const refusal = serverRefusalOf(error, {
        fields: ['email', 'password'],
        fallback: MESSAGES.signUpDefault,
      });
      if (refusal.form) setFormError(refusal.form);
    }
  });

  const busy = signUp.isPending;
  return (
    <AuthCard title="Create Account">
      <SignInReason text={signInReason(search.redirect, 'sign-up')} />
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <FormError message={formError} />
        <TextField label="Name" autoComplete="name" {...fieldProps('name')} />
        <EmailField {...fieldProps('email')} />
        <TextField
          label="Mobile (optional)"
          type="tel"
          autoComplete="tel-national"
          inputMode="tel"
          maxLength={MOBILE_INPUT_MAX}
          {...fieldProps('mobile')}
        />
        <PasswordField label="Password" autoComplete="new-password" {...fieldProps('password')} />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          {...fieldProps('confirmPassword')}
        />
        <div>
          <div className="flex items-start gap-2">
            <input
              id="accept-terms"
              type="checkbox"
              className="mt-1 h-4 w-4 accent-brand-600"
              aria-invalid={termsError ? true : undefined}
              aria-describedby={termsError ? 'accept-terms-error' : undefined}
              {...acceptTerms}
            />
            <label htmlFor="accept-terms" className="text-sm text-gray-800">
              I accept the{' '}
              <Link to="/Terms & Conditions" className="font-medium text-brand-700 underline">
                Terms of Service
              </Link>{' '}
              and{' '}
              <Link to="/privacy-policy" className="font-medium text-brand-700 underline">
                Privacy Policy
              </Link>
            </label>
          </div>
          <FieldError id="accept-terms-error" message={termsError} />
        </div>
        <p className="text-sm text-gray-700">{SIGN_UP_VERIFY_NOTE}</p>
        <SubmitButton busy={busy} busyText="Creating Account...">
          Create Account
        </SubmitButton>
      </form>
      <GoogleSignIn redirect={search.redirect} disabled={busy} />
      <p className="mt-4 text-center text-sm text-gray-700">
        Already have an account?{' '}
        <Link
          to="/login"
          search={definedOnly({ redirect: search.redirect })}
          className="font-semibold text-brand-700 hover:underline"
        >
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
