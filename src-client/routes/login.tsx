import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from './__root.tsx';

const searchSchema = z.object({
  /** The page that sent a signed-out visitor here (lib/auth.ts requireSignedIn); checked before use. */
  redirect: z.string().optional().catch(undefined),
  /** Set by the Google sign-in callback when it could not sign the person in. */
  error: z.string().optional().catch(undefined),
});

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: searchSchema,
}).lazy(() => import('./login.lazy.tsx').then((m) => m.Route));
