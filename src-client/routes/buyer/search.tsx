import { createRoute } from '@tanstack/react-router';
import { buyerLayout } from './layout.tsx';

export interface SearchParams {
  q: string;
}

export const searchRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/search',
  validateSearch: (search: Record<string, unknown>): SearchParams => ({
    q: typeof search.q === 'string' ? search.q.slice(0, 100) : '',
  }),
}).lazy(() => import('./search.lazy.tsx').then((m) => m.Route));
