import { createRoute } from '@tanstack/react-router';
import { LoadFailed, LoadingText } from '../../components/status-screens.tsx';
import { accountLayout } from './account-layout.tsx';

export const profileRoute = createRoute({
  getParentRoute: () => accountLayout,
  path: '/profile',
  pendingComponent: () => <LoadingText text="Loading user data..." />,
  errorComponent: () => <LoadFailed title="My Profile" message="Failed to load user data" />,
}).lazy(() => import('./profile.lazy.tsx').then((m) => m.Route));
