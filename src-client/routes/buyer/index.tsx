import { createRoute } from '@tanstack/react-router';
import { HOME_BANNER } from '../../../shared/home-banner.ts';
import { EventCard, type EventSummary } from '../../components/event-card.tsx';
import { eventCount, LoadMore } from '../../components/load-more.tsx';
import { ScrollItem, ScrollRow } from '../../components/scroll-row.tsx';
import { LoadFailed, LoadingText } from '../../components/status-screens.tsx';
import { openCityPicker } from '../../lib/city-picker-state.ts';
import { selectedCityNow, useSelectedCity } from '../../lib/city-storage.ts';
import { trpc } from '../../lib/trpc.ts';
import { useMorePages } from '../../lib/use-more-pages.ts';
import { useRenderInSteps } from '../../lib/yield-to-main.ts';
import { buyerLayout } from './layout.tsx';

export const homeRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/',
  loader: ({ context }) =>
    // Spec §8: a failed load on home is only logged.
    context.trpcUtils.events.home.ensureData({ city: selectedCityNow().name }).catch((error: unknown) => {
      console.error('Failed to load events', error);
    }),
  component: HomePage,
});

/** Cards fetched per "Load more" in a home row. */
const ROW_PAGE = 12;
/**
 * Cards per row in the first render: those the screen shows (a card and its gap are 176 px wide on a
 * phone, 224 px from `sm`; a desktop row shows five and a half, a phone two and a half) and one more;
 * the rest follow a few at a time in later tasks (useRenderInSteps), so the first render is short.
 */
function firstCards(): number {
  const width = typeof window === 'undefined' ? 1280 : Math.min(window.innerWidth, 1280);
  return Math.ceil(width / (width >= 640 ? 224 : 176)) + 1;
}
/** Cards added per row in each later task (two rows: eight cards, well under 50 ms on a slow phone). */
const CARDS_PER_STEP = 4;

/**
 * The chosen city's first events (or, when it has none, the nearest cities') and everyone else's, from
 * one small answer (`events.home`); each row asks for its next page when scrolled to its end.
 */
function HomePage() {
  const selected = useSelectedCity();
  const home = trpc.events.home.useQuery({ city: selected.name });
  const utils = trpc.useUtils();
  const city = home.data?.city ?? selected.name;
  const nearMore = useMorePages(`near|${city}`, home.data?.near.nextCursor ?? null, (cursor) =>
    utils.events.page.fetch({ city, limit: ROW_PAGE, cursor }),
  );
  const othersMore = useMorePages(`others|${city}`, home.data?.others.nextCursor ?? null, (cursor) =>
    utils.events.page.fetch({ exceptCity: city, limit: ROW_PAGE, cursor }),
  );

  if (home.error) console.error('Failed to load events', home.error);
  const data = home.data;
  const near = data ? [...data.near.items, ...nearMore.items] : [];
  const alternatives = data?.alternatives ?? [];
  const shown = new Set(alternatives.map((e) => e.id));
  const others = data ? [...data.others.items, ...othersMore.items].filter((e) => !shown.has(e.id)) : [];
  const nearCards = near.length > 0 ? near : alternatives;
  const revealed = useRenderInSteps(Math.max(nearCards.length, others.length), firstCards(), CARDS_PER_STEP);
  // A row's 'More events' end (which loads the next page when scrolled to) waits for its cards.
  const nearAll = revealed >= nearCards.length;
  const othersAll = revealed >= others.length;

  return (
    <>
      <div className="mx-auto max-w-7xl px-4 pt-4">
        <div className="relative overflow-hidden rounded-2xl bg-brand-700">
          <img
            src={HOME_BANNER.src}
            srcSet={HOME_BANNER.srcSet}
            sizes={HOME_BANNER.sizes}
            alt=""
            width={HOME_BANNER.width}
            height={HOME_BANNER.height}
            fetchPriority="high"
            className="h-44 w-full object-cover sm:h-64 lg:h-80"
          />
          <div className="absolute inset-0 flex flex-col justify-center bg-gradient-to-r from-black/45 to-transparent px-6 pb-10 sm:px-12">
            <h1 className="text-3xl font-extrabold text-white drop-shadow sm:text-5xl lg:text-6xl">
              Live it up, India.
            </h1>
            <p className="mt-2 max-w-xl text-sm text-white sm:text-lg">
              Concerts, comedy, sports, shows and workshops in your city.
            </p>
          </div>
        </div>
      </div>
      {home.isPending ? (
        <LoadingText />
      ) : home.isError ? (
        // Not 'Nothing is on in <city>': a failed load is not an empty city (issue 17).
        <LoadFailed message="We couldn't load the events just now. Please check your connection and try again." />
      ) : data ? (
        <>
          <ScrollRow
            title="Happening near me"
            intro={
              near.length === 0 ? (
                <p className="mb-3 text-gray-700">
                  Nothing is on in {selected.name} just yet.{' '}
                  {data.alternativesFrom
                    ? `Here is what is happening nearby, in ${data.alternativesFrom}.`
                    : 'Here is what is coming up soon.'}{' '}
                  <button
                    type="button"
                    onClick={openCityPicker}
                    className="font-semibold text-brand-700 underline"
                  >
                    Choose another city
                  </button>
                </p>
              ) : (
                <p className="mb-3 text-gray-700">
                  {eventCount(data.near.total ?? near.length, data.near.totalIsCapped)} in {selected.name}
                  {/* Delhi/NCR is only the default until the visitor says where they are. */}
                  {selected.storedName === null && (
                    <>
                      {' · '}
                      <button
                        type="button"
                        onClick={openCityPicker}
                        className="font-semibold text-brand-700 underline"
                      >
                        Choose your city
                      </button>
                    </>
                  )}
                </p>
              )
            }
          >
            <Cards events={nearCards.slice(0, revealed)} />
            {near.length > 0 && nearAll && nearMore.hasMore && (
              <RowEnd onMore={nearMore.loadMore} loading={nearMore.loading} />
            )}
          </ScrollRow>
          {others.length > 0 && (
            <ScrollRow title="You may also like">
              <Cards events={others.slice(0, revealed)} />
              {othersAll && othersMore.hasMore && (
                <RowEnd onMore={othersMore.loadMore} loading={othersMore.loading} />
              )}
            </ScrollRow>
          )}
        </>
      ) : null}
    </>
  );
}

function Cards({ events }: { events: EventSummary[] }) {
  return events.map((event) => (
    <ScrollItem key={event.id}>
      <EventCard event={event} />
    </ScrollItem>
  ));
}

/** The last place in a row: loads the next cards when scrolled to (or pressed). */
function RowEnd({ onMore, loading }: { onMore: () => void; loading: boolean }) {
  return (
    <li className="flex w-40 shrink-0 items-center justify-center sm:w-52">
      <LoadMore onMore={onMore} loading={loading} label="More events" />
    </li>
  );
}
