/**
 * The first paint before the JavaScript arrives (issue 6, Lighthouse): the server puts a static copy of
 * the page's top into `#root` — the header bar, and on the home and event pages the hero the reader
 * came for — so the browser paints it from the HTML and the CSS alone. React replaces the whole of
 * `#root` on its first render (start-app.tsx renders once the route's data and code are loaded), with new
 * elements at the same places, so nothing shifts and nothing flashes.
 *
 * The markup copies the client's own (components/header.tsx, routes/index.tsx,
 * routes/event-detail.lazy.tsx) class for class: Tailwind only generates classes the client uses, and
 * the copy must take the same room. Change them together.
 */

import { HOME_BANNER } from '../../shared/home-banner.ts';

/** What an event without pictures shows (components/event-card.tsx DEFAULT_EVENT_IMAGE). */
export const DEFAULT_EVENT_IMAGE = '/images/event-default.webp';

export interface PageShell {
  /** Inside `#root`. */
  body: string;
  /** The image the page paints largest, fetched first (`<link rel="preload">`). */
  lcpImage: LcpImage | null;
}

/** The largest paint's picture: its file, and for a sized one the choice the `<img>` offers. */
export interface LcpImage {
  href: string;
  srcSet?: string;
  sizes?: string;
}

/** The header bar alone: logo and the room the city and menu buttons take once React is there. */
function withHeader(content: string): string {
  return [
    '<header class="sticky top-0 z-30 border-b border-gray-200 bg-white/95 backdrop-blur">',
    '<div class="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3">',
    '<a href="/" class="flex shrink-0 items-center gap-2 text-xl font-extrabold text-brand-600">',
    '<img src="/favicon.svg" alt="" width="28" height="28">Jalsa</a>',
    // The phone's menu button is 40 px tall; on wider screens the city button and search box, 38 px.
    '<div class="ml-auto h-10 md:hidden"></div><div class="hidden md:flex" style="height:38px"></div>',
    '</div></header>',
    content,
  ].join('');
}

/**
 * What a page says while its data is on the way (components/status-screens.tsx LoadingText), so a slow
 * network shows the spec's loading text rather than a blank page until the first render (issue 17).
 */
const loading = (text: string) => `<p role="status" class="px-4 py-16 text-center text-gray-600">${text}</p>`;

/** The signed-in pages whose first render waits for the account: their own loading texts (spec §5). */
const LOADING_TEXTS: [RegExp, string][] = [
  [/^\/my-bookings\/?$/i, 'Loading your bookings...'],
  [/^\/profile\/?$/i, 'Loading user data...'],
];

/**
 * The gate's own bar (src-client/routes/gate/layout.tsx): the gate is full screen in its own chrome, so
 * its first paint shows no storefront header either.
 */
const GATE_BAR = [
  '<header class="flex items-center gap-2 border-b border-gray-200 px-4 py-2">',
  '<img src="/gate-icons/gate-icon-192.png" alt="" width="28" height="28" class="rounded-md">',
  '<span class="text-lg font-extrabold text-gray-900">Jalsa Gate</span></header>',
].join('');

/** The header (the gate's bar at the gate) and, for a page that waits for its data, its loading text. */
export function pathShell(path: string): PageShell {
  if (/^\/gate\/?$/i.test(path)) return { body: GATE_BAR, lcpImage: null };
  const bookingId = /^\/ticket\/([^/]+)\/?$/i.exec(path)?.[1];
  if (bookingId) return { body: withHeader(ticketLoading(bookingId)), lcpImage: null };
  const text = LOADING_TEXTS.find(([pattern]) => pattern.test(path))?.[1];
  return { body: withHeader(text ? loading(text) : ''), lcpImage: null };
}

/** Spec §5: 'Loading ticket...' with the booking ID, as routes/ticket.tsx TicketLoading shows it. */
function ticketLoading(pathSegment: string): string {
  let bookingId = pathSegment;
  try {
    bookingId = decodeURIComponent(pathSegment).trim();
  } catch {
    // A malformed escape: show the segment as it came.
  }
  return [
    '<div role="status" class="px-4 py-16 text-center text-gray-600">',
    '<p>Loading ticket...</p>',
    `<p class="mt-1 text-sm">Booking ID: ${escapeHtml(bookingId)}</p>`,
    '</div>',
  ].join('');
}

export function homeShell(): PageShell {
  const hero = [
    '<div class="mx-auto max-w-7xl px-4 pt-4">',
    '<div class="relative overflow-hidden rounded-2xl bg-brand-700">',
    `<img src="${HOME_BANNER.src}" srcset="${HOME_BANNER.srcSet}" sizes="${HOME_BANNER.sizes}" alt="" width="${HOME_BANNER.width}" height="${HOME_BANNER.height}" fetchpriority="high" class="h-44 w-full object-cover sm:h-64 lg:h-80">`,
    '<div class="absolute inset-0 flex flex-col justify-center bg-gradient-to-r from-black/45 to-transparent px-6 pb-10 sm:px-12">',
    '<h1 class="text-3xl font-extrabold text-white drop-shadow sm:text-5xl lg:text-6xl">Live it up, India.</h1>',
    '<p class="mt-2 max-w-xl text-sm text-white sm:text-lg">Concerts, comedy, sports, shows and workshops in your city.</p>',
    '</div></div></div>',
    // Below the banner, until the events are here.
    loading('Loading...'),
  ].join('');
  return {
    body: withHeader(hero),
    lcpImage: { href: HOME_BANNER.src, srcSet: HOME_BANNER.srcSet, sizes: HOME_BANNER.sizes },
  };
}

/** An existing event: its picture and name where the event page puts them. */
export function eventShell(event: { name: string; imageUrl: string | null }): PageShell {
  const image = event.imageUrl ?? DEFAULT_EVENT_IMAGE;
  const top = [
    '<article class="mx-auto max-w-6xl px-4 pb-24 pt-6 lg:pb-6">',
    `<img src="${escapeHtml(image)}" alt="" width="1200" height="600" fetchpriority="high" class="aspect-[2/1] w-full rounded-2xl bg-gray-100 object-cover sm:aspect-[12/5]">`,
    '<div class="mt-6 grid gap-8 lg:grid-cols-[1fr_320px]"><div>',
    '<div class="flex items-start justify-between gap-4">',
    `<h1 class="text-2xl font-extrabold text-gray-900 sm:text-3xl">${escapeHtml(event.name)}</h1>`,
    '</div></div></div>',
    // The rest of the event (dates, price, venue) arrives with its data.
    loading('Loading...'),
    '</article>',
  ].join('');
  return { body: withHeader(top), lcpImage: { href: image } };
}

/**
 * The `<link rel="preload">` for the largest paint's picture, at high priority. A sized picture's
 * preload carries the same srcset and sizes as its `<img>`, so the browser fetches the file the image
 * will pick (and only that one) while the page is still arriving.
 */
export function lcpPreloadTag(image: LcpImage): string {
  const choice = image.srcSet
    ? ` imagesrcset="${escapeHtml(image.srcSet)}" imagesizes="${escapeHtml(image.sizes ?? '100vw')}"`
    : '';
  return `<link rel="preload" as="image" href="${escapeHtml(image.href)}"${choice} fetchpriority="high">`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The element id of the first screen's data (src-client/lib/initial-data.ts reads it). */
export const INITIAL_DATA_ID = 'initial-data';

/** One public query's answer, as the client's React Query cache keeps it. */
export interface InitialQuery {
  /** The tRPC procedure, e.g. `events.home`. */
  path: string;
  input: unknown;
  data: unknown;
}

/**
 * The first screen's data inside the page (issue 39): the client puts it in its query cache before the
 * first render, so the home cards and the event page paint from the first response with no second round
 * trip. A JSON block is data, not script: the CSP needs no change. Every `<` is written `\u003c` (and
 * `>`, `&` and the two JavaScript line separators likewise), so no value, however named, can end the
 * element (`</script>`) or open a comment; JSON.parse reads them back unchanged.
 */
export function initialDataTag(queries: InitialQuery[]): string {
  if (queries.length === 0) return '';
  const json = JSON.stringify(queries).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `<script type="application/json" id="${INITIAL_DATA_ID}">${json}</script>`;
}
