import { createRoute } from '@tanstack/react-router';
import { LoadingText } from '../../components/status-screens.tsx';
import { requireSignedIn } from '../../lib/auth.ts';
import { buyerLayout } from './layout.tsx';

/** The link in a waiting-list offer mail (issue 19): the held tickets and Pay. Signed in, as the offer's account. */
export const waitlistOfferRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/waitlist/offers/$entryId',
  beforeLoad: requireSignedIn,
  pendingComponent: () => <LoadingText />,
}).lazy(() => import('./waitlist-offer.lazy.tsx').then((m) => m.Route));
