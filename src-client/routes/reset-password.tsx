import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from './__root.tsx';

export const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
}).lazy(() => import('./reset-password.lazy.tsx').then((m) => m.Route));
