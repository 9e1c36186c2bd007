import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const profileRoute = createRoute({ getParentRoute: () => rootRoute, path: '/profile' }).lazy(() =>
  import('./profile.lazy.tsx').then((m) => m.Route),
);
