import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../__root.tsx';

export const privacyPolicyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/privacy-policy',
}).lazy(() => import('./privacy-policy.lazy.tsx').then((m) => m.Route));
