import { createRoute } from '@tanstack/react-router';
import { parseAccessCodeSearch } from '../../lib/access-code-search.ts';
import { buyerLayout } from './layout.tsx';

export const selectTicketsRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/select-tickets/$eventId',
  // `?code=`: the buyer's access code, carried from the event page (ADR 0038).
  validateSearch: parseAccessCodeSearch,
  loaderDeps: ({ search }) => ({ code: search.code }),
  // Prefetch on hover and navigation; the page reads the same query and shows its own loading and errors.
  loader: ({ context, params, deps }) => {
    void context.trpcUtils.tickets.options.prefetch({ eventId: params.eventId, code: deps.code });
  },
}).lazy(() => import('./select-tickets.lazy.tsx').then((m) => m.Route));
