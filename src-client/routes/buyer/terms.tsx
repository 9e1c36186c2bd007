import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../__root.tsx';

export const termsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/Terms & Conditions' }).lazy(
  () => import('./terms.lazy.tsx').then((m) => m.Route),
);
