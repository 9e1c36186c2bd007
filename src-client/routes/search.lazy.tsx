import { createLazyRoute, Link } from '@tanstack/react-router';
import { EventGrid } from '../components/event-card.tsx';
import { LoadingText, NoResults } from '../components/status-screens.tsx';
import { trpc } from '../lib/trpc.ts';

export const Route = createLazyRoute('/search')({ component: SearchPage });

/** Results of the top bar's search: event name, venue, city (or alias) and artist. */
function SearchPage() {
  const { q } = Route.useSearch();
  const text = q.trim();
  const results = trpc.events.search.useQuery({ q: text }, { enabled: text.length > 0 });

  return (
    <section className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-bold text-gray-900">{text ? `Results for "${text}"` : 'Search events'}</h1>
      {!text ? (
        <p className="mt-3 text-gray-700">Type an event, venue, city or artist in the search box above.</p>
      ) : results.isPending ? (
        <LoadingText text="Searching..." />
      ) : results.error ? (
        <p role="alert" className="mt-4 text-red-700">
          Search failed. Please try again.
        </p>
      ) : results.data.length === 0 ? (
        <NoResults title={`No events found for "${text}"`}>
          <p className="mt-2 text-gray-700">
            Try another name, venue, city or artist, or browse everything on.
          </p>
          <Link
            to="/explore"
            className="mt-5 inline-block rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            Browse all events
          </Link>
        </NoResults>
      ) : (
        <>
          <p className="mt-2 text-gray-700">
            {results.data.length} {results.data.length === 1 ? 'event' : 'events'} found
          </p>
          <EventGrid events={results.data} className="mt-6" />
        </>
      )}
    </section>
  );
}
