/**
 * The base of every link the app hands out: in mail, in link previews (Open Graph), in calendar files, in
 * shared event links and as Google's sign-in callback. It is PUBLIC_URL's origin, or else the origin of
 * `fallback` (the request's address, or the local server when no request is at hand). The app is served
 * from the root of its origin, so a path or a trailing slash in PUBLIC_URL is dropped: every link is the
 * base followed by an absolute path, never `//ticket` nor `/jalsa/ticket` on one page and `/ticket` on
 * another.
 */
export function publicLinkBase(publicUrl: string | undefined, fallback: string): string {
  return new URL(publicUrl ?? fallback).origin;
}

/** The link people share: {site}/event/{id} (spec §2); the server previews it with Open Graph tags. */
export function eventShareLink(base: string, eventId: string): string {
  return `${base}/event/${encodeURIComponent(eventId)}`;
}
