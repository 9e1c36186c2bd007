import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const signUpRoute = createRoute({ getParentRoute: () => rootRoute, path: '/SignUp' }).lazy(() =>
  import('./sign-up.lazy.tsx').then((m) => m.Route),
);
