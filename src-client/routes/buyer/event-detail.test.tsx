// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { PLUS_GST_DETAIL } from '../../../test/mocks/prices-plus-gst-fixtures.ts';
import type { RouterOutputs } from '../../lib/trpc.ts';
import { EventDetailView } from './event-detail.lazy.tsx';

type EventDetail = RouterOutputs['events']['byId'];
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

const slot = (id: string, startTime: string, endTime: string, cancelled = false) => ({
  id,
  startTime,
  endTime,
  cancelled,
  tickets: [],
});

/** A three-day run in India time: 12 Dec 18:30, 13 Dec 14:00 (matinee) and 18:30, and a cancelled 14 Dec. */
const EVENT: EventDetail = {
  id: 'evt-run',
  name: 'Hamlet in Hindi',
  category: 'shows',
  city: 'Pune',
  posterUrl: null,
  imageUrl: null,
  startTime: '2026-12-12T13:00:00.000Z',
  endTime: '2026-12-14T15:30:00.000Z',
  eventLocationText: 'Balgandharva Rangmandir',
  lowestPricePaise: 49_900,
  pricesPlusGst: false,
  description: 'Shakespeare, translated.',
  imagesUrls: [],
  googleMapsEmbedLink: null,
  ageRestrictions: null,
  language: 'Hindi',
  artistLineup: null,
  termsAndConditions: [],
  platformFeeRate: null,
  refundPolicy: { cutoffHours: 24, rule: 'full', percent: null },
  status: 'published',
  tickets: [
    {
      id: 'd1',
      dateOfEvent: '2026-12-11T18:30:00.000Z',
      isLive: true,
      slots: [slot('s1', '2026-12-12T13:00:00.000Z', '2026-12-12T15:30:00.000Z')],
    },
    {
      id: 'd2',
      dateOfEvent: '2026-12-12T18:30:00.000Z',
      isLive: true,
      slots: [
        slot('s2', '2026-12-13T08:30:00.000Z', '2026-12-13T11:00:00.000Z'),
        slot('s3', '2026-12-13T13:00:00.000Z', '2026-12-13T15:30:00.000Z'),
      ],
    },
    {
      id: 'd3',
      dateOfEvent: '2026-12-13T18:30:00.000Z',
      isLive: true,
      slots: [slot('s4', '2026-12-14T13:00:00.000Z', '2026-12-14T15:30:00.000Z', true)],
    },
  ],
};

function render(event: EventDetail) {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  // The team's preview: the same page without the router's Book Now link.
  act(() => root!.render(<EventDetailView event={event} preview />));
}

describe('the event page names every show', () => {
  it('shows the span of dates, the number of shows and each day with its start times, not the first date alone', () => {
    render(EVENT);
    const text = container.textContent ?? '';
    expect(text).toContain('Dates:12–13 Dec 2026 · 3 shows');
    const shows = [...container.querySelectorAll('ul[aria-label="Shows"] li')].map((li) => li.textContent);
    expect(shows).toEqual(['Sat, 12 Dec · 6:30 PM', 'Sun, 13 Dec · 2:00 PM, 6:30 PM']);
    // The price box and the phone's bottom bar carry the same summary.
    expect(
      [...container.querySelectorAll('p')].filter((p) => p.textContent === '12–13 Dec 2026 · 3 shows'),
    ).toHaveLength(2);
    expect(text).not.toContain('Starts:');
  });

  it('keeps date, start and end for a single show', () => {
    render({ ...EVENT, endTime: '2026-12-12T15:30:00.000Z', tickets: [EVENT.tickets[0]!] });
    const text = container.textContent ?? '';
    expect(text).toContain('Date:12 Dec 2026');
    expect(text).toContain('Starts:6:30 PM');
    expect(text).toContain('Ends:9:00 PM');
    expect(container.querySelector('ul[aria-label="Shows"]')).toBeNull();
  });
});

describe('the event page says when GST is added to the price (issue 40, no drip pricing)', () => {
  /** The price box's and the phone bar's lowest-price lines. */
  const priceLines = () =>
    [...container.querySelectorAll('p')].map((p) => p.textContent ?? '').filter((t) => t.includes('₹'));

  it('a ₹750 ticket with GST added at checkout: "₹750 + GST Onwards" in the price box and the phone bar', () => {
    render(PLUS_GST_DETAIL);
    expect(priceLines()).toEqual(['₹750 + GST Onwards', '₹750 + GST Onwards']);
  });

  it('prices that include GST stay "₹750 Onwards"', () => {
    render({ ...PLUS_GST_DETAIL, pricesPlusGst: false });
    expect(priceLines()).toEqual(['₹750 Onwards', '₹750 Onwards']);
  });
});
