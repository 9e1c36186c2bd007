import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const loginRoute = createRoute({ getParentRoute: () => rootRoute, path: '/login' }).lazy(() =>
  import('./login.lazy.tsx').then((m) => m.Route),
);
