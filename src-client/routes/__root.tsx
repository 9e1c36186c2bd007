import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FirstVisitCityPrompt } from '../components/first-visit-city-prompt.tsx';
import { Footer } from '../components/footer.tsx';
import { Header } from '../components/header.tsx';
import { ErrorScreen, NotFoundScreen } from '../components/status-screens.tsx';
import type { RouterContext } from '../lib/router-context.ts';

export const rootRoute = createRootRouteWithContext<RouterContext>()({
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
    </div>
  );
}
