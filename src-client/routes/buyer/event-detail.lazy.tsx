import { createLazyRoute, Link } from '@tanstack/react-router';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { formatDuration, formatLongDate, formatTime, summariseShows } from '../../../shared/dates.ts';
import { formatOnwards } from '../../../shared/lowest-price.ts';
import { venueMap } from '../../../shared/map-links.ts';
import { eventShareLink } from '../../../shared/public-links.ts';
import { describeRefundPolicy } from '../../../shared/refund-policy.ts';
import { DEFAULT_EVENT_IMAGE } from '../../components/event-card.tsx';
import { LineIcon } from '../../components/line-icon.tsx';
import { LoadFailed, LoadingText, NotFound } from '../../components/status-screens.tsx';
import type { AccessCodeSearch } from '../../lib/access-code-search.ts';
import { shareNatively } from '../../lib/share.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { useRenderInSteps } from '../../lib/yield-to-main.ts';

const ShareDialog = lazy(() => import('../../components/share-dialog.tsx'));

export const Route = createLazyRoute('/_buyer/events/$eventId')({ component: EventDetailPage });

type EventDetail = RouterOutputs['events']['byId'];

function EventDetailPage() {
  const { eventId } = Route.useParams();
  const { code } = Route.useSearch() as AccessCodeSearch;
  const query = trpc.events.byId.useQuery({ id: eventId, code });

  if (query.isPending) return <LoadingText />;
  if (query.error) {
    if (query.error.data?.code !== 'NOT_FOUND')
      return <LoadFailed title="Event" message="Failed to load event" />;
    return (
      <NotFound
        title="We couldn't find this event"
        text="Event not found. It may have ended or been taken down, or the link may be mistyped."
      />
    );
  }
  return <EventDetailView event={query.data} code={code} />;
}

/**
 * When the show on the page's date ends (the event starts with its earliest slot): the event's own end
 * is its last slot's, which for a run of several dates is days later. An event without slots keeps it.
 */
function firstShowEnd(event: EventDetail): string | null {
  const first = event.tickets.flatMap((d) => d.slots).find((s) => s.startTime === event.startTime);
  return first?.endTime ?? event.endTime;
}

/**
 * Every show a buyer can still come to (issue 35: the page named only the first date, so matinees and
 * later dates sold worse): the starts of the event's slots on live dates, not cancelled. Null for a
 * single show, which the page describes by its date, start and end as before.
 */
function severalShows(event: EventDetail) {
  const starts = event.tickets
    .filter((d) => d.isLive)
    .flatMap((d) => d.slots)
    .filter((s) => !s.cancelled)
    .map((s) => s.startTime);
  return starts.length > 1 ? summariseShows(starts) : null;
}

/** The event page; `preview` (the team's preview of a draft) switches booking and sharing off. */
export function EventDetailView({
  event,
  preview = false,
  code,
}: {
  event: EventDetail;
  preview?: boolean;
  /** The buyer's access code (ADR 0038), carried on to the ticket selection. */
  code?: string;
}) {
  const [shareOpen, setShareOpen] = useState(false);
  const below = useRenderInSteps(1, 0, 1) > 0;
  const onwards = formatOnwards(event.lowestPricePaise, event.pricesPlusGst);
  const cancelled = event.status === 'cancelled';
  const map = venueMap(event.googleMapsEmbedLink, event.eventLocationText);
  const image = event.imagesUrls[0] ?? event.posterUrl ?? DEFAULT_EVENT_IMAGE;
  const ends = firstShowEnd(event);
  const shows = severalShows(event);
  const when = shows?.headline ?? `${formatLongDate(event.startTime)} · ${formatTime(event.startTime)}`;
  useEffect(() => {
    document.title = `${preview ? 'Preview: ' : ''}${event.name} | Jalsa`;
  }, [event.name, preview]);

  return (
    <article className="mx-auto max-w-6xl px-4 pb-24 pt-6 lg:pb-6">
      <img
        src={image}
        alt=""
        width={1200}
        height={600}
        className="aspect-[2/1] w-full rounded-2xl bg-gray-100 object-cover sm:aspect-[12/5]"
      />
      {cancelled && (
        <p role="status" className="mt-4 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
          Cancelled. This event will not take place; every booking is refunded in full.
        </p>
      )}
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_320px]">
        <div>
          <div className="flex items-start justify-between gap-4">
            <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">{event.name}</h1>
            <button
              type="button"
              disabled={preview}
              onClick={async () => {
                const shared = await shareNatively({
                  title: event.name,
                  url: eventShareLink(window.location.origin, event.id),
                });
                if (!shared) setShareOpen(true);
              }}
              className="inline-flex shrink-0 items-center gap-2 rounded-lg border border-gray-300 px-3 py-2 text-sm font-semibold text-gray-800 hover:border-brand-500 disabled:opacity-60"
            >
              <LineIcon size={18}>
                <circle cx="18" cy="5" r="3" />
                <circle cx="6" cy="12" r="3" />
                <circle cx="18" cy="19" r="3" />
                <path d="M8.6 13.5l6.8 4M15.4 6.5l-6.8 4" />
              </LineIcon>
              Share
            </button>
          </div>
          <dl className="mt-4 grid gap-x-6 gap-y-2 text-gray-800 sm:grid-cols-2">
            {shows ? (
              <Fact label="Dates">{shows.headline}</Fact>
            ) : (
              <>
                <Fact label="Date">{formatLongDate(event.startTime)}</Fact>
                <Fact label="Starts">{formatTime(event.startTime)}</Fact>
                <Fact label="Ends">{ends ? formatTime(ends) : 'Not announced'}</Fact>
              </>
            )}
            <Fact label="Venue">{event.eventLocationText}</Fact>
          </dl>
          {shows && (
            <ul aria-label="Shows" className="mt-3 flex flex-wrap gap-2">
              {shows.days.map((day) => (
                <li
                  key={day.day}
                  className="rounded-lg border border-gray-200 px-3 py-1.5 text-sm text-gray-800"
                >
                  <span className="font-semibold">{day.label}</span> · {day.times.join(', ')}
                </li>
              ))}
            </ul>
          )}

          <Section title="About Event">
            <p className="whitespace-pre-line leading-relaxed text-gray-800">{event.description}</p>
          </Section>

          {/* Below the fold on a phone: drawn in the task after the first render, which on a slow phone
              is then that much shorter (issue 39); nothing above them moves. */}
          {below && (
            <>
              <Section title="More Information">
                <dl className="grid gap-3 sm:grid-cols-3">
                  {event.language && <InfoTile label="Language">{event.language}</InfoTile>}
                  <InfoTile label="Age limit">
                    {event.ageRestrictions !== null ? `${event.ageRestrictions} yrs +` : 'All ages'}
                  </InfoTile>
                  <InfoTile label="Duration">{formatDuration(event.startTime, ends)}</InfoTile>
                </dl>
              </Section>

              {event.artistLineup && (
                <Section title="Artists">
                  <ul className="flex flex-wrap gap-6">
                    {event.artistLineup.map((artist) => (
                      <li key={artist.name} className="w-28 text-center">
                        <img
                          src={artist.imageUrl ?? DEFAULT_EVENT_IMAGE}
                          alt=""
                          width={112}
                          height={112}
                          loading="lazy"
                          className="mx-auto h-24 w-24 rounded-full bg-gray-100 object-cover"
                        />
                        <p className="mt-2 text-sm font-semibold text-gray-900">{artist.name}</p>
                      </li>
                    ))}
                  </ul>
                </Section>
              )}

              <Section title="Venue">
                <p className="text-gray-800">{event.eventLocationText}</p>
                {/* Always there: a map that cannot load (offline, blocked) would otherwise leave a grey box. */}
                <a
                  href={map.openUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="mt-1 mb-3 inline-flex items-center gap-1 font-semibold text-brand-700 underline"
                >
                  Open in Maps<span className="sr-only"> (opens in a new tab)</span>
                </a>
                {map.frameUrl && (
                  <iframe
                    title={`Map of ${event.eventLocationText}`}
                    src={map.frameUrl}
                    loading="lazy"
                    referrerPolicy="no-referrer-when-downgrade"
                    className="h-72 w-full rounded-xl border-0 bg-gray-100"
                  />
                )}
              </Section>

              <Section title="Cancellation & refunds">
                <p className="text-gray-800">{describeRefundPolicy(event.refundPolicy)}</p>
                <p className="mt-1 text-sm text-gray-700">
                  Tickets marked non-refundable cannot be cancelled.
                </p>
              </Section>

              {event.termsAndConditions.length > 0 && (
                <Section title="Terms & Conditions">
                  <ul className="list-disc space-y-1 pl-5 text-gray-800">
                    {event.termsAndConditions.map((term) => (
                      <li key={term}>{term}</li>
                    ))}
                  </ul>
                </Section>
              )}
            </>
          )}
        </div>

        <aside className="hidden lg:sticky lg:top-24 lg:block lg:self-start">
          <div className="rounded-2xl border border-gray-200 p-5 shadow-sm">
            {onwards && <p className="text-xl font-bold text-gray-900">{onwards}</p>}
            <p className="mt-1 text-sm text-gray-700">{when}</p>
            {cancelled ? (
              <p className="mt-4 text-center text-lg font-bold text-red-800">Cancelled</p>
            ) : (
              <BookNow
                eventId={event.id}
                code={code}
                preview={preview}
                className="mt-4 block w-full px-4 py-3 text-center"
              />
            )}
          </div>
        </aside>
      </div>
      {/* Phones: price and Book Now stay at hand in a bar along the bottom. */}
      <div className="fixed inset-x-0 bottom-0 z-20 flex items-center justify-between gap-4 border-t border-gray-200 bg-white px-4 py-3 lg:hidden">
        <div>
          {onwards && <p className="font-bold text-gray-900">{onwards}</p>}
          <p className={onwards ? 'text-sm text-gray-700' : 'font-bold text-gray-900'}>
            {shows?.headline ?? formatLongDate(event.startTime)}
          </p>
        </div>
        {cancelled ? (
          <p className="font-bold text-red-800">Cancelled</p>
        ) : (
          <BookNow eventId={event.id} code={code} preview={preview} className="px-6 py-2.5" />
        )}
      </div>
      {shareOpen && (
        <Suspense fallback={null}>
          <ShareDialog open onOpenChange={setShareOpen} eventId={event.id} title={event.name} />
        </Suspense>
      )}
    </article>
  );
}

function BookNow({
  eventId,
  code,
  preview,
  className,
}: {
  eventId: string;
  code?: string;
  preview: boolean;
  className: string;
}) {
  const look = `${className} rounded-lg bg-brand-600 font-bold text-white`;
  if (preview) {
    return (
      <button type="button" disabled className={`${look} opacity-60`}>
        Book Now
      </button>
    );
  }
  return (
    <Link
      to="/select-tickets/$eventId"
      params={{ eventId }}
      search={code ? { code } : {}}
      className={`${look} hover:bg-brand-700`}
    >
      Book Now
    </Link>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt className="font-semibold text-gray-600">{label}:</dt>
      <dd>{children}</dd>
    </div>
  );
}

function InfoTile({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-xl bg-gray-50 p-4">
      <dt className="text-sm text-gray-600">{label}</dt>
      <dd className="mt-1 font-semibold text-gray-900">{children}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-8">
      <h2 className="mb-3 text-xl font-bold text-gray-900">{title}</h2>
      {children}
    </section>
  );
}

/** Google Maps' search link for a venue: opens the Maps app on a phone, the website elsewhere. */
