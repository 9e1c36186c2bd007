import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const exploreRoute = createRoute({ getParentRoute: () => rootRoute, path: '/explore' }).lazy(() =>
  import('./explore.lazy.tsx').then((m) => m.Route),
);
