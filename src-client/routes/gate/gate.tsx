import { createRoute } from '@tanstack/react-router';
import { gateLayout } from './layout.tsx';

/** The gate scanner (docs/decisions/0022); who may open it is its layout's check (layout.tsx). */
export const gateRoute = createRoute({
  getParentRoute: () => gateLayout,
  path: '/gate',
}).lazy(() => import('./gate.lazy.tsx').then((m) => m.Route));
