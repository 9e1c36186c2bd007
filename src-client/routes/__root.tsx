import { createRootRouteWithContext, Outlet, redirect } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FirstVisitCityPrompt } from '../components/first-visit-city-prompt.tsx';
import { Footer } from '../components/footer.tsx';
import { Header } from '../components/header.tsx';
import { ErrorScreen, NotFoundScreen } from '../components/status-screens.tsx';
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
  component: () => (
    <RootLayout>
      <Outlet />
    </RootLayout>
  ),
  // Even an error above every page keeps the header (a way home, the account) and the footer.
  errorComponent: ({ error }) => (
    <RootLayout>
      <ErrorScreen error={error} />
    </RootLayout>
  ),
  notFoundComponent: NotFoundScreen,
});

function RootLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50"
      >
        Skip to content
      </a>
      <Header />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer />
      <FirstVisitCityPrompt />
      <FlashMessage />
    </div>
  );
}

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
