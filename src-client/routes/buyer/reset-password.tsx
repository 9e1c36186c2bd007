import { createRoute } from '@tanstack/react-router';
import { definedOnly, optionalString } from '../../lib/search-params.ts';
import { buyerLayout } from './layout.tsx';

export const resetPasswordRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/reset-password',
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    definedOnly({ token: optionalString(search.token) }),
}).lazy(() => import('./reset-password.lazy.tsx').then((m) => m.Route));
