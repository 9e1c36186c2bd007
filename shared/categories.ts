/** Browsing categories. Every event carries exactly one. */
export const EVENT_CATEGORIES = ['concerts', 'sports', 'shows', 'comedy', 'workshops', 'others'] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<EventCategory, string> = {
  concerts: 'Concerts',
  sports: 'Sports',
  shows: 'Shows',
  comedy: 'Comedy',
  workshops: 'Workshops',
  others: 'Others',
};
