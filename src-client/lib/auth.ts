import { useQueryClient } from '@tanstack/react-query';
import { type ParsedLocation, redirect, useNavigate } from '@tanstack/react-router';
import { safeRedirectPath } from '../../shared/safe-redirect.ts';
import { flash } from './flash.ts';
import type { RouterContext } from './router-context.ts';
import { type RouterOutputs, trpc } from './trpc.ts';

/**
 * The signed-in person's account (or null), shared by the header menu, guards and forms through one
 * React Query entry (`auth.me`).
 */
export function useCurrentUser() {
  return trpc.auth.me.useQuery(undefined, { staleTime: 60_000 });
}

/**
 * A route's `beforeLoad` guard: a signed-out visitor goes to /login?redirect=<this page> and comes back
 * after signing in. It only decides where to send a person; the server authorises every call itself.
 *
 *   beforeLoad: requireSignedIn,
 */
export async function requireSignedIn({
  context,
  location,
}: {
  context: RouterContext;
  location: Pick<ParsedLocation, 'href'>;
}) {
  const user = await context.trpcUtils.auth.me.ensureData(undefined, { staleTime: 60_000 });
  if (!user) throw redirect({ to: '/login', search: { redirect: location.href } });
  return { user };
}

/** The page to open after signing in: the `redirect` search parameter if it is a path on this site. */
export function afterSignInPath(redirectParam: string | undefined): string {
  return safeRedirectPath(redirectParam, '/');
}

type Account = NonNullable<RouterOutputs['auth']['me']>;

/**
 * What the account screens do after the session changes: remember the new account (or nobody) and drop
 * every other cached answer, which may belong to the previous person (bookings, tickets).
 */
export function useSessionChange() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  return {
    signedIn(account: Account) {
      queryClient.removeQueries({ predicate: (q) => !isMeQuery(q.queryKey) });
      utils.auth.me.setData(undefined, account);
    },
    signedOut() {
      queryClient.removeQueries({ predicate: (q) => !isMeQuery(q.queryKey) });
      utils.auth.me.setData(undefined, null);
    },
  };
}

function isMeQuery(key: readonly unknown[]): boolean {
  const path = key[0];
  return Array.isArray(path) && path[0] === 'auth' && path[1] === 'me';
}

/** Logout: ends the session on the server, forgets the account here, goes home and says so. */
export function useSignOut() {
  const { signedOut } = useSessionChange();
  const navigate = useNavigate();
  const mutation = trpc.auth.signOut.useMutation({
    onSettled: () => {
      signedOut();
      void navigate({ to: '/' });
      flash('Signed out. See you again soon!');
    },
  });
  return { signOut: () => mutation.mutate(), isPending: mutation.isPending };
}

/** What a request that never got an answer (or an unexpected failure) shows: the spec's default. */
export const SOMETHING_WENT_WRONG = 'Something went wrong. Please try again.';

/** The server's message for an answered request; the fallback when the request never got one. */
export function messageOf(error: unknown, fallback = SOMETHING_WENT_WRONG): string {
  const answered = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  const message = (error as { message?: unknown } | null)?.message;
  return answered && typeof message === 'string' && message ? message : fallback;
}
