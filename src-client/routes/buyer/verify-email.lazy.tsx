import { createLazyRoute, Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { MESSAGES } from '../../../shared/auth-schemas.ts';
import { AuthCard, FormError } from '../../components/auth-fields.tsx';
import { messageOf } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';
import { verifyEmailRoute } from './verify-email.tsx';

export const Route = createLazyRoute('/_buyer/verify-email')({ component: VerifyEmailPage });

/** Opened from the sign-up mail's link: confirms the address as soon as the page loads. */
function VerifyEmailPage() {
  const { token } = verifyEmailRoute.useSearch();
  const utils = trpc.useUtils();
  const verify = trpc.auth.verifyEmail.useMutation({ onSuccess: () => utils.auth.me.invalidate() });
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    verify.mutate({ token });
  }, [token, verify]);

  return (
    <AuthCard title="Verify Email">
      {!token ? (
        <FormError message={MESSAGES.verifyLinkInvalid} />
      ) : verify.isSuccess ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-green-900">
          Your email address has been verified. Thank you!
        </p>
      ) : verify.isError ? (
        <FormError message={messageOf(verify.error, MESSAGES.verifyLinkInvalid)} />
      ) : (
        <p role="status" className="text-gray-700">
          Verifying your email address...
        </p>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/" className="font-semibold text-brand-700 hover:underline">
          Browse events
        </Link>
      </p>
    </AuthCard>
  );
}
