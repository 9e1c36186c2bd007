import { createRoute } from '@tanstack/react-router';
import { buyerLayout } from './layout.tsx';

export const contactUsRoute = createRoute({ getParentRoute: () => buyerLayout, path: '/Contact_Us' }).lazy(
  () => import('./contact-us.lazy.tsx').then((m) => m.Route),
);
