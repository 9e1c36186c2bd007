import { createRoute } from '@tanstack/react-router';
import { buyerLayout } from './layout.tsx';

export const termsRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/Terms & Conditions',
}).lazy(() => import('./terms.lazy.tsx').then((m) => m.Route));
