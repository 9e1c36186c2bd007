import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { CATEGORY_LABELS } from '../../../shared/categories.ts';
import { EventGrid } from '../../components/event-card.tsx';
import { eventCount, LoadMore } from '../../components/load-more.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { LoadingText, NoResults } from '../../components/status-screens.tsx';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/search')({ component: SearchPage });

/** Results per page. */
const SEARCH_PAGE = 24;

/**
 * Search (issue 25, and issue 17's "Finding things"): a box with typeahead suggestions, then ranked
 * results over event name, artists, venue, city (or alias) and category (or a word for it), one page
 * at a time. Misspellings are matched by similarity and said so.
 */
function SearchPage() {
  const { q } = Route.useSearch();
  const text = q.trim();
  const results = trpc.events.searchPage.useInfiniteQuery(
    { q: text, limit: SEARCH_PAGE },
    { enabled: text.length > 0, getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  const first = results.data?.pages[0];
  const found = results.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <section className="mx-auto max-w-7xl px-4 py-8">
      <SearchField initial={text} />
      <h1 className="mt-6 text-2xl font-bold text-gray-900">
        {text ? `Results for "${text}"` : 'Search events'}
      </h1>
      {!text ? (
        <p className="mt-3 text-gray-700">Type an event, artist, venue, city or category.</p>
      ) : results.isPending ? (
        // Held at a screen's height, as on /explore: the results then do not push the footer down in view.
        <div className="min-h-screen">
          <LoadingText text="Searching..." />
        </div>
      ) : results.error ? (
        <p role="alert" className="mt-4 text-red-700">
          {results.error.data?.code === 'TOO_MANY_REQUESTS'
            ? results.error.message
            : 'Search failed. Please try again.'}
        </p>
      ) : found.length === 0 ? (
        <NoResults title={`No events found for "${text}"`}>
          <p className="mt-2 text-gray-700">Check the spelling, or try an artist, venue or city instead.</p>
          <Link
            to="/explore"
            className="mt-5 inline-block rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            Browse all events
          </Link>
        </NoResults>
      ) : (
        <>
          <p className="mt-2 text-gray-700" role="status">
            {first?.approximate
              ? `No exact matches. Showing ${eventCount(first.total ?? found.length, false)} with a similar spelling.`
              : `${eventCount(first?.total ?? found.length, first?.totalIsCapped ?? false)} found`}
          </p>
          <EventGrid events={found} className="mt-6" />
          {results.hasNextPage && (
            <div className="mt-6 flex justify-center">
              <LoadMore
                onMore={() => {
                  if (!results.isFetchingNextPage) void results.fetchNextPage();
                }}
                loading={results.isFetchingNextPage}
              />
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The page's own search box, with suggestions as you type (after a short pause). */
function SearchField({ initial }: { initial: string }) {
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();
  // A new search in the address (a suggestion chosen, Back) shows its words; not on mount, where it
  // would wipe what a quick buyer (or a loaded phone's late effect) already typed.
  const shownInitial = useRef(initial);
  useEffect(() => {
    if (shownInitial.current === initial) return;
    shownInitial.current = initial;
    setValue(initial);
  }, [initial]);
  useEffect(() => {
    const timer = setTimeout(() => setTyped(value.trim()), 200);
    return () => clearTimeout(timer);
  }, [value]);
  const suggestions = trpc.events.suggest.useQuery(
    { q: typed },
    { enabled: open && typed.length >= 3 && typed !== initial, staleTime: 60_000 },
  );
  const go = (q: string) => {
    setOpen(false);
    if (q.trim()) void navigate({ to: '/search', search: { q: q.trim() } });
  };
  const s = suggestions.data;
  const any = s && (s.events.length > 0 || s.categories.length > 0 || s.cities.length > 0);

  return (
    // Named apart from the header's 'Site' search (axe's landmark-unique).
    <form
      role="search"
      aria-label="Event"
      onSubmit={(e) => {
        e.preventDefault();
        go(value);
      }}
      className="relative max-w-xl"
    >
      <SearchInput
        labelClassName="block"
        value={value}
        autoFocus={!initial}
        onChange={(e) => {
          setValue(e.target.value);
          setOpen(true);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        placeholder="Artist, event, venue or city"
        role="combobox"
        aria-expanded={Boolean(open && any)}
        aria-controls={listId}
        aria-autocomplete="list"
        className="w-full rounded-full border border-gray-300 bg-white py-3 pl-10 pr-4 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
      />
      {open && any && (
        <ul
          id={listId}
          role="listbox"
          className="absolute inset-x-0 top-full z-20 mt-1 overflow-hidden rounded-xl border border-gray-200 bg-white shadow-lg"
        >
          {s.categories.map((c) => (
            <Suggestion key={`c-${c}`} onPick={() => go(CATEGORY_LABELS[c])}>
              {CATEGORY_LABELS[c]} <span className="text-gray-500">· category</span>
            </Suggestion>
          ))}
          {s.cities.map((c) => (
            <Suggestion key={`city-${c}`} onPick={() => go(c)}>
              {c} <span className="text-gray-500">· city</span>
            </Suggestion>
          ))}
          {s.events.map((e) => (
            <Suggestion
              key={e.id}
              onPick={() => {
                setOpen(false);
                void navigate({ to: '/events/$eventId', params: { eventId: e.id } });
              }}
            >
              {e.name} <span className="text-gray-500">· {e.city}</span>
            </Suggestion>
          ))}
        </ul>
      )}
    </form>
  );
}

function Suggestion({ onPick, children }: { onPick: () => void; children: React.ReactNode }) {
  return (
    <li role="option" aria-selected={false}>
      <button
        type="button"
        onMouseDown={(e) => e.preventDefault()}
        onClick={onPick}
        className="block w-full px-4 py-2 text-left text-sm text-gray-800 hover:bg-gray-50"
      >
        {children}
      </button>
    </li>
  );
}
