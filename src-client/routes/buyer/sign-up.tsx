import { createRoute } from '@tanstack/react-router';
import { definedOnly, optionalString } from '../../lib/search-params.ts';
import { buyerLayout } from './layout.tsx';

export interface SignUpSearch {
  /** Where to go once the account exists (e.g. a team invitation's page); checked before use. */
  redirect?: string;
}

export const signUpRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/SignUp',
  validateSearch: (search: Record<string, unknown>): SignUpSearch =>
    definedOnly({ redirect: optionalString(search.redirect) }),
}).lazy(() => import('./sign-up.lazy.tsx').then((m) => m.Route));
