import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const protectedRoute = createRoute({ getParentRoute: () => rootRoute, path: '/protected' }).lazy(() =>
  import('./protected.lazy.tsx').then((m) => m.Route),
);
