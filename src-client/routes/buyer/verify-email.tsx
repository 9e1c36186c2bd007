import { createRoute } from '@tanstack/react-router';
import { definedOnly, optionalString } from '../../lib/search-params.ts';
import { buyerLayout } from './layout.tsx';

export const verifyEmailRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/verify-email',
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    definedOnly({ token: optionalString(search.token) }),
}).lazy(() => import('./verify-email.lazy.tsx').then((m) => m.Route));
