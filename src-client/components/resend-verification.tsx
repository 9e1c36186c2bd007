import { messageOf } from '../lib/auth.ts';
import { trpc } from '../lib/trpc.ts';

/**
 * Sends the signed-in user's verification link again (quietly limited on the server): the button, then
 * `sentText` once sent, or the server's refusal under it. Checkout's unverified-address refusal and the
 * profile's notice each say it in their own words.
 */
export function ResendVerification({
  label,
  sentText,
  className,
}: {
  label: string;
  sentText: string;
  className: string;
}) {
  const resend = trpc.auth.resendVerification.useMutation();
  if (resend.isSuccess) {
    return (
      <p role="status" className="mt-2 font-semibold">
        {sentText}
      </p>
    );
  }
  return (
    <>
      <button type="button" onClick={() => resend.mutate()} disabled={resend.isPending} className={className}>
        {resend.isPending ? 'Sending...' : label}
      </button>
      {resend.isError && (
        <p role="alert" className="mt-2 font-semibold">
          {messageOf(resend.error)}
        </p>
      )}
    </>
  );
}
