import { createRoute } from '@tanstack/react-router';
import { useMemo } from 'react';
import { type City, citiesByDistance } from '../../shared/cities.ts';
import { EventCard, type EventSummary } from '../components/event-card.tsx';
import { ScrollItem, ScrollRow } from '../components/scroll-row.tsx';
import { LoadFailed, LoadingText } from '../components/status-screens.tsx';
import { openCityPicker } from '../lib/city-picker-state.ts';
import { useSelectedCity } from '../lib/city-storage.ts';
import { trpc } from '../lib/trpc.ts';
import { rootRoute } from './__root.tsx';

export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  loader: ({ context }) =>
    // Spec §8: a failed load on home is only logged.
    context.trpcUtils.events.list.ensureData(undefined).catch((error: unknown) => {
      console.error('Failed to load events', error);
    }),
  component: HomePage,
});

/** How many events from the nearest cities to suggest when the chosen city has none. */
const ALTERNATIVES = 8;

function HomePage() {
  const events = trpc.events.list.useQuery(undefined);
  const selected = useSelectedCity();
  const rows = useMemo(
    () => splitByCity(events.data ?? [], selected.name, selected.city),
    [events.data, selected],
  );

  if (events.error) console.error('Failed to load events', events.error);

  return (
    <>
      <div className="mx-auto max-w-7xl px-4 pt-4">
        <div className="relative overflow-hidden rounded-2xl bg-brand-700">
          <img
            src="/images/banner-home.webp"
            alt=""
            width={1600}
            height={500}
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
      {events.isPending ? (
        <LoadingText />
      ) : events.isError ? (
        // Not 'Nothing is on in <city>': a failed load is not an empty city (issue 17).
        <LoadFailed message="We couldn't load the events just now. Please check your connection and try again." />
      ) : (
        <>
          <ScrollRow
            title="Happening near me"
            intro={
              rows.near.length === 0 ? (
                <p className="mb-3 text-gray-700">
                  Nothing is on in {selected.name} just yet.{' '}
                  {rows.alternativesFrom
                    ? `Here is what is happening nearby, in ${rows.alternativesFrom}.`
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
                  {rows.near.length} {rows.near.length === 1 ? 'event' : 'events'} in {selected.name}
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
            {rows.nearOrAlternatives.map((event) => (
              <ScrollItem key={event.id}>
                <EventCard event={event} />
              </ScrollItem>
            ))}
          </ScrollRow>
          {rows.rest.length > 0 && (
            <ScrollRow title="You may also like">
              {rows.rest.map((event) => (
                <ScrollItem key={event.id}>
                  <EventCard event={event} />
                </ScrollItem>
              ))}
            </ScrollRow>
          )}
        </>
      )}
    </>
  );
}

/**
 * 'Happening near me' is the chosen city's events. When it has none, the row suggests events from the
 * nearest cities that have some (or simply the soonest, for a typed city without coordinates), and
 * 'You may also like' shows everything else.
 */
export function splitByCity(events: EventSummary[], cityName: string, city: City | undefined) {
  const near = events.filter((e) => e.city === cityName);
  if (near.length > 0) {
    return {
      near,
      nearOrAlternatives: near,
      rest: events.filter((e) => e.city !== cityName),
      alternativesFrom: null,
    };
  }
  let alternatives: EventSummary[];
  let alternativesFrom: string | null = null;
  if (city) {
    const rank = new Map(citiesByDistance(city.coordinates).map((c, i) => [c.name, i]));
    alternatives = [...events]
      .sort((a, b) => (rank.get(a.city) ?? 999) - (rank.get(b.city) ?? 999))
      .slice(0, ALTERNATIVES);
    const cities = [...new Set(alternatives.map((e) => e.city))];
    alternativesFrom = cities.length ? formatList(cities) : null;
  } else {
    alternatives = events.slice(0, ALTERNATIVES);
  }
  const shown = new Set(alternatives.map((e) => e.id));
  return {
    near,
    nearOrAlternatives: alternatives,
    rest: events.filter((e) => !shown.has(e.id)),
    alternativesFrom,
  };
}

function formatList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
