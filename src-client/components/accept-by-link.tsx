import { Link } from '@tanstack/react-router';
import { messageOf } from '../lib/auth.ts';
import { FormError } from './auth-fields.tsx';

/**
 * The two halves of a page reached from a mailed link that someone accepts (a ticket transfer, a team
 * invitation): signed out, the ways to an account that come back to the link; signed in, the accept
 * button with the server's refusal above it.
 */
export function SignInToAccept({ redirect }: { redirect: string }) {
  return (
    <div className="mt-3 flex flex-wrap gap-3">
      <Link
        to="/login"
        search={{ redirect }}
        className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
      >
        Sign in to accept
      </Link>
      <Link
        to="/SignUp"
        search={{ redirect }}
        className="rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50"
      >
        Create an account
      </Link>
    </div>
  );
}

export function AcceptButton({
  label,
  pending,
  error,
  onAccept,
}: {
  label: string;
  pending: boolean;
  error: unknown;
  onAccept: () => void;
}) {
  return (
    <div className="mt-6 space-y-3">
      <FormError message={error ? messageOf(error) : null} />
      <button
        type="button"
        disabled={pending}
        onClick={onAccept}
        className="w-full rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-70"
      >
        {pending ? 'Accepting...' : label}
      </button>
    </div>
  );
}
