import { createRoute } from '@tanstack/react-router';
import { parseAccessCodeSearch } from '../../lib/access-code-search.ts';
import { buyerLayout } from './layout.tsx';

export const eventDetailRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/events/$eventId',
  // `?code=`: an access code, which shows the hidden ticket types it unlocks (ADR 0038).
  validateSearch: parseAccessCodeSearch,
  loaderDeps: ({ search }) => ({ code: search.code }),
  // Prefetch while the chunk loads; the screen itself shows 'Event not found' or 'Failed to load event'.
  loader: ({ context, params, deps }) =>
    context.trpcUtils.events.byId.ensureData({ id: params.eventId, code: deps.code }).catch(() => undefined),
}).lazy(() => import('./event-detail.lazy.tsx').then((m) => m.Route));
