import { createRoute } from '@tanstack/react-router';
import { LoadFailed, LoadingText } from '../../components/status-screens.tsx';
import { requireSignedIn } from '../../lib/auth.ts';
import { buyerLayout } from './layout.tsx';

export const profileRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/profile',
  beforeLoad: requireSignedIn,
  pendingComponent: () => <LoadingText text="Loading user data..." />,
  errorComponent: () => <LoadFailed title="My Profile" message="Failed to load user data" />,
}).lazy(() => import('./profile.lazy.tsx').then((m) => m.Route));
