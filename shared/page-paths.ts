/**
 * Every path the client router has a screen for, in its own notation (`$name` is one path segment).
 * The server answers any other path with the app's not-found page and HTTP 404, so a monitor or a
 * crawler pointed at a wrong URL is told so. `src-client/router.test.ts` keeps this list equal to the
 * router's: a new screen fails that test until its path is added here.
 */
export const PAGE_PATHS = [
  '/',
  '/login',
  '/SignUp',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/events/$eventId',
  '/events/$eventId/waiting-room',
  '/event/$eventId',
  '/select-tickets/$eventId',
  '/checkout-tickets',
  '/temp-checkout',
  '/explore',
  '/search',
  '/my-bookings',
  '/ticket',
  '/ticket/$bookingId',
  '/profile',
  '/protected',
  '/check-in',
  '/gate',
  '/privacy-policy',
  '/Terms & Conditions',
  '/Contact_Us',
  '/list-your-event',
  '/organiser',
  '/organiser/events/new',
  '/organiser/profile',
  '/organiser/payouts',
  '/organiser/events/$eventId/edit',
  '/organiser/events/$eventId/team',
  '/organiser/events/$eventId/preview',
  '/organiser/events/$eventId/sales',
  '/organiser/events/$eventId/orders',
  '/organiser/events/$eventId/box-office',
  '/organiser/events/$eventId/bookings/$bookingId',
  '/organiser/invitations/$token',
  '/transfers/$token',
  '/waitlist/offers/$entryId',
  '/admin',
] as const;

const patterns = PAGE_PATHS.map(
  (path) =>
    new RegExp(
      `^${path
        .split('/')
        .map((segment) =>
          segment.startsWith('$') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/')}/?$`,
      // The client router matches paths without regard to case, and so does this.
      'i',
    ),
);

/** Whether the client has a screen for this (decoded) path. */
export function isPagePath(pathname: string): boolean {
  return patterns.some((pattern) => pattern.test(pathname));
}
