import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../__root.tsx';

export const contactUsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/Contact_Us' }).lazy(() =>
  import('./contact-us.lazy.tsx').then((m) => m.Route),
);
