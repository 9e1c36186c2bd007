import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../__root.tsx';

export interface SearchParams {
  q: string;
}

export const searchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/search',
  validateSearch: (search: Record<string, unknown>): SearchParams => ({
    q: typeof search.q === 'string' ? search.q.slice(0, 100) : '',
  }),
}).lazy(() => import('./search.lazy.tsx').then((m) => m.Route));
