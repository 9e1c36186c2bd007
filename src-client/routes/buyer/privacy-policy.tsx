import { createRoute } from '@tanstack/react-router';
import { buyerLayout } from './layout.tsx';

export const privacyPolicyRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/privacy-policy',
}).lazy(() => import('./privacy-policy.lazy.tsx').then((m) => m.Route));
