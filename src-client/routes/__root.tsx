import { createRootRouteWithContext, Outlet, redirect } from '@tanstack/react-router';
import { ErrorScreen, NotFoundScreen } from '../components/status-screens.tsx';
import { StorefrontChrome } from '../components/storefront-chrome.tsx';
import { useFlash } from '../lib/flash.ts';
import type { RouterContext } from '../lib/router-context.ts';

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  // The console's, admin's and gate's routes load only when one of their paths is opened (issue 39,
  // router.tsx): then the same location is matched again, against the whole tree. A preload (a link
  // hovered) only loads them.
  beforeLoad: async ({ context, location, cause }) => {
    if ((await context.routesFor?.(location.pathname)) && cause !== 'preload') {
      throw redirect({ href: location.href, replace: true });
    }
  },
  // Each audience's layout route draws its own chrome (routes/buyer/layout.tsx, console/, admin/, gate/;
  // docs/decisions/0048-client-layout.md): the root adds only what every page shares, the toast.
  component: () => (
    <>
      <Outlet />
      <FlashMessage />
    </>
  ),
  // Even an error above every page keeps the header (a way home, the account) and the footer; so does a
  // path no route matches.
  errorComponent: ({ error }) => (
    <StorefrontChrome>
      <ErrorScreen error={error} />
    </StorefrontChrome>
  ),
  notFoundComponent: () => (
    <StorefrontChrome>
      <NotFoundScreen />
    </StorefrontChrome>
  ),
});

/** The app's toast (lib/flash.ts): a live region from the start, so screen readers announce it. */
function FlashMessage() {
  const message = useFlash();
  return (
    <p
      role="status"
      className={
        message
          ? 'fixed bottom-6 left-1/2 z-50 -translate-x-1/2 rounded-lg bg-gray-900 px-5 py-3 font-semibold text-white shadow-lg'
          : 'sr-only'
      }
    >
      {message}
    </p>
  );
}
