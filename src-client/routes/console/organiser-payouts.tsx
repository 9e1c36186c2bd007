import { createRoute } from '@tanstack/react-router';
import { definedOnly, optionalNumber, optionalString } from '../../lib/search-params.ts';
import { consoleLayout } from './layout.tsx';

/** The month and page of the monthly payout statement; the server validates them again (shared/sales-schemas.ts). */
export interface PayoutsSearch {
  month?: string;
  page?: number;
}

/** The organiser's payout statement of a month, every event of theirs in it (issue 40). */
export const organiserPayoutsRoute = createRoute({
  getParentRoute: () => consoleLayout,
  staticData: { organiserOnly: true },
  path: '/organiser/payouts',
  validateSearch: (search: Record<string, unknown>): PayoutsSearch =>
    definedOnly({ month: optionalString(search.month), page: optionalNumber(search.page) }),
}).lazy(() => import('./organiser-payouts.lazy.tsx').then((m) => m.Route));
