import { type ParsedLocation, redirect } from '@tanstack/react-router';
import { safeRedirectPath } from '../../shared/auth-schemas.ts';
import type { RouterContext } from '../routes/__root.tsx';
import { trpc } from './trpc.ts';

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
