import type { EventCategory } from '../../../shared/categories.ts';

/** What an event card and a list need: no ticket details, just the lowest price. */
export interface EventSummary {
  id: string;
  name: string;
  category: EventCategory;
  city: string;
  posterUrl: string | null;
  imageUrl: string | null;
  startTime: string;
  endTime: string | null;
  eventLocationText: string;
  lowestPricePaise: number | null;
  /** GST is added on top of the ticket prices at checkout ("₹750 + GST", issue 40). */
  pricesPlusGst: boolean;
}
