import { createRoute } from '@tanstack/react-router';
import { EVENT_CATEGORIES, type EventCategory } from '../../../shared/categories.ts';
import { buyerLayout } from './layout.tsx';

export const DATE_CHOICES = ['today', 'tomorrow', 'weekend'] as const;
export type DateChoice = (typeof DATE_CHOICES)[number];

export interface ExploreParams {
  category?: EventCategory;
  /** A quick choice, or one India calendar day 'yyyy-MM-dd'. */
  when?: DateChoice | string;
  /** Every city's events; without it the list keeps to the chosen city (issue 17). */
  cities?: 'all';
}

export const exploreRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/explore',
  validateSearch: (search: Record<string, unknown>): ExploreParams => {
    const category = EVENT_CATEGORIES.find((c) => c === search.category);
    const when =
      typeof search.when === 'string' &&
      ((DATE_CHOICES as readonly string[]).includes(search.when) || /^\d{4}-\d{2}-\d{2}$/.test(search.when))
        ? search.when
        : undefined;
    const cities = search.cities === 'all' ? ('all' as const) : undefined;
    return { ...(category && { category }), ...(when && { when }), ...(cities && { cities }) };
  },
}).lazy(() => import('./explore.lazy.tsx').then((m) => m.Route));
