/**
 * What an organiser may paste as an event's map link, and what the event page does with it.
 *
 * Google Maps offers two things to copy: **Share → Copy link** gives a short `https://maps.app.goo.gl/…`
 * link (or a `google.com/maps/place/…` address from the address bar), which Google refuses to show
 * inside a frame; **Share → Embed a map → Copy HTML** gives `<iframe src="https://www.google.com/maps/embed?pb=…">`.
 * Both are accepted: an embed link is shown as the page's map, a share link becomes the "Open in Maps"
 * link and the map shows a search for the venue (which Google does allow in a frame). Anything else is
 * refused with how to get one, since the page's Content-Security-Policy lets frames come only from Google.
 */
export type MapLink = { kind: 'embed'; url: string } | { kind: 'share'; url: string };

export const MAP_LINK_HELP =
  'Paste a Google Maps link: in Google Maps choose Share, then Copy link (or Embed a map, then Copy HTML).';

const GOOGLE_MAPS_HOSTS = new Set(['www.google.com', 'google.com', 'maps.google.com', 'www.google.co.in']);
const SHORT_LINK_HOSTS = new Set(['maps.app.goo.gl', 'goo.gl']);

/** Reads what was pasted (a link, or the whole `<iframe …>` HTML); null when it is not a Google Maps link. */
export function parseMapLink(pasted: string): MapLink | null {
  const text = pasted.trim();
  const src = /<iframe\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/i.exec(text)?.[1] ?? text;
  let url: URL;
  try {
    url = new URL(src.replaceAll('&amp;', '&'));
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase();
  const framable = url.pathname.startsWith('/maps/embed') || url.searchParams.get('output') === 'embed';
  if (GOOGLE_MAPS_HOSTS.has(host) && framable) {
    // The page's CSP lets frames come only from www.google.com and maps.google.com.
    if (host !== 'maps.google.com') url.hostname = 'www.google.com';
    return { kind: 'embed', url: url.href };
  }
  if (SHORT_LINK_HOSTS.has(host) && (host === 'maps.app.goo.gl' || url.pathname.startsWith('/maps/'))) {
    return { kind: 'share', url: url.href };
  }
  if (GOOGLE_MAPS_HOSTS.has(host) && (host === 'maps.google.com' || url.pathname.startsWith('/maps'))) {
    return { kind: 'share', url: url.href };
  }
  return null;
}

/** A search for the venue, for "Open in Maps" when no share link was given. */
export function mapsSearchUrl(venue: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(venue)}`;
}

/** The venue shown in a frame: Google serves this search without an API key and lets it be framed. */
export function mapsEmbedSearchUrl(venue: string): string {
  return `https://maps.google.com/maps?q=${encodeURIComponent(venue)}&output=embed`;
}

/**
 * What the event page shows: the frame's address and the "Open in Maps" target. A stored link that is
 * not a Google Maps link (saved before this rule) is ignored rather than left as a blank, blocked frame.
 */
export function venueMap(
  storedLink: string | null,
  venue: string,
): { frameUrl: string | null; openUrl: string } {
  const link = storedLink ? parseMapLink(storedLink) : null;
  if (link?.kind === 'embed') return { frameUrl: link.url, openUrl: mapsSearchUrl(venue) };
  if (link?.kind === 'share') return { frameUrl: mapsEmbedSearchUrl(venue), openUrl: link.url };
  return { frameUrl: null, openUrl: mapsSearchUrl(venue) };
}
