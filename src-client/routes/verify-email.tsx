import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from './__root.tsx';

export const verifyEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/verify-email',
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
}).lazy(() => import('./verify-email.lazy.tsx').then((m) => m.Route));
