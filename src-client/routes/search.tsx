import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const searchRoute = createRoute({ getParentRoute: () => rootRoute, path: '/search' }).lazy(() =>
  import('./search.lazy.tsx').then((m) => m.Route),
);
