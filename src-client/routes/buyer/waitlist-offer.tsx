import { createRoute } from '@tanstack/react-router';
import { LoadingText } from '../../components/status-screens.tsx';
import { accountLayout } from './account-layout.tsx';

/** The link in a waiting-list offer mail (issue 19): the held tickets and Pay. Signed in, as the offer's account. */
export const waitlistOfferRoute = createRoute({
  getParentRoute: () => accountLayout,
  path: '/waitlist/offers/$entryId',
  pendingComponent: () => <LoadingText />,
}).lazy(() => import('./waitlist-offer.lazy.tsx').then((m) => m.Route));
