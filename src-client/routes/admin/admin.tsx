import { createRoute } from '@tanstack/react-router';
import { adminLayout } from './layout.tsx';

/** The admin page: organiser requests and organiser rights. Non-admins see 'not allowed' (its layout's check). */
export const adminRoute = createRoute({
  getParentRoute: () => adminLayout,
  path: '/admin',
}).lazy(() => import('./admin.lazy.tsx').then((m) => m.Route));
