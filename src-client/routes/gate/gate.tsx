import { createRoute, isRedirect } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** The gate scanner (docs/decisions/0022): the event's gate staff, co-organisers, owner; admins. */
export const gateRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/gate',
  // Offline (the service worker served the page), who is signed in cannot be asked: the gate opens
  // with what the device kept, and the server checks the session on every call once back online.
  beforeLoad: async (options) => {
    try {
      return await requireSignedIn(options);
    } catch (error) {
      if (isRedirect(error)) throw error;
      return { user: null };
    }
  },
}).lazy(() => import('./gate.lazy.tsx').then((m) => m.Route));
