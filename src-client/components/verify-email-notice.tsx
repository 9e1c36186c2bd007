import { ResendVerification } from './resend-verification.tsx';

/**
 * Booking needs a verified e-mail address (the hoarding limits, ADR 0023): said wherever a buyer meets it
 * first, so that nobody fills in the whole checkout before being sent to their inbox (issue 35 item 26).
 */
export function VerifyEmailNotice({ email, at }: { email: string; at: 'checkout' | 'profile' }) {
  return (
    <div
      data-testid="verify-email-notice"
      className="mt-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900"
    >
      {at === 'checkout' ? (
        <p>
          <strong>Verify your email before you book.</strong> Open the link we sent to {email}, then come back
          here: your tickets stay selected.
        </p>
      ) : (
        <p>
          Your email address is not verified yet. Open the link in the email we sent to {email} when you
          signed up; you need it before you can book tickets.
        </p>
      )}
      <ResendVerification
        label="Send the verification email again"
        sentText="We've sent you a new verification email."
        className="mt-2 font-semibold text-amber-900 underline"
      />
    </div>
  );
}
