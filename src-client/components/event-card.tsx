import { Link } from '@tanstack/react-router';
import { formatCardDate, formatTime } from '../../shared/india-clock.ts';
import { formatPrice } from '../../shared/lowest-price.ts';
import type { RouterOutputs } from '../lib/trpc.ts';

export type EventSummary = RouterOutputs['events']['list'][number];

export const DEFAULT_EVENT_IMAGE = '/images/event-default.webp';

/**
 * Event card (spec §2): poster, name, 'Sat, 5 Dec · 7:30 PM' in India time, location, '₹499 onwards'
 * (the lowest ticket price the server computed; nothing when no ticket type is on sale); opens the event.
 * A long venue is cut, never the place after its last comma (the city or area), which tells apart cards
 * in rows that mix cities.
 */
export function EventCard({ event }: { event: EventSummary }) {
  const comma = event.eventLocationText.lastIndexOf(',');
  const venue = comma > 0 ? event.eventLocationText.slice(0, comma + 1) : '';
  const place = event.eventLocationText.slice(comma + 1).trim();
  return (
    <Link
      to="/events/$eventId"
      params={{ eventId: event.id }}
      className="group block h-full w-full overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-gray-200 transition hover:shadow-md focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <img
        src={event.posterUrl ?? event.imageUrl ?? DEFAULT_EVENT_IMAGE}
        alt=""
        width={600}
        height={800}
        loading="lazy"
        decoding="async"
        className="aspect-[3/4] w-full bg-gray-100 object-cover transition group-hover:scale-[1.02]"
      />
      <div className="p-3">
        <h3 className="line-clamp-2 font-semibold text-gray-900">{event.name}</h3>
        <p className="mt-1 text-sm text-gray-700">
          {formatCardDate(event.startTime)} · {formatTime(event.startTime)}
        </p>
        <p className="mt-0.5 flex text-sm text-gray-600">
          {venue && <span className="min-w-0 truncate">{venue}</span>}
          <span className="shrink-0 whitespace-nowrap pl-1 first:pl-0">{place}</span>
        </p>
        {event.lowestPricePaise !== null && (
          <p className="mt-1 text-sm font-semibold text-gray-900">
            {event.lowestPricePaise === 0
              ? 'Free'
              : `${formatPrice(event.lowestPricePaise, event.pricesPlusGst)} onwards`}
          </p>
        )}
      </div>
    </Link>
  );
}

/**
 * Event cards in rows of two (phone), three and five (desktop): the explore and search results, under the
 * page's h1. The cards' titles are h3, so the grid brings its own (unseen) h2: a screen reader's list of
 * headings stays in order on every page that shows a grid (axe's heading-order).
 */
export function EventGrid({ events, className }: { events: readonly EventSummary[]; className: string }) {
  return (
    <>
      <h2 className="sr-only">Events</h2>
      <ul className={`${className} grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5`}>
        {events.map((event) => (
          <li key={event.id}>
            <EventCard event={event} />
          </li>
        ))}
      </ul>
    </>
  );
}
