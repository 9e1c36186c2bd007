import { createRoute } from '@tanstack/react-router';
import { definedOnly, optionalString } from '../../lib/search-params.ts';
import { buyerLayout } from './layout.tsx';

export interface LoginSearch {
  /** The page that sent a signed-out visitor here (lib/auth.ts requireSignedIn); checked before use. */
  redirect?: string;
  /** Set by the Google sign-in callback when it could not sign the person in. */
  error?: string;
}

export const loginRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): LoginSearch =>
    definedOnly({ redirect: optionalString(search.redirect), error: optionalString(search.error) }),
}).lazy(() => import('./login.lazy.tsx').then((m) => m.Route));
