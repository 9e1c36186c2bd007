import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { FirstVisitCityPrompt } from '../components/first-visit-city-prompt.tsx';
import { Footer } from '../components/footer.tsx';
import { Header } from '../components/header.tsx';
import { ErrorScreen, NotFoundScreen } from '../components/status-screens.tsx';
import type { RouterContext } from '../lib/router-context.ts';

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  errorComponent: ErrorScreen,
  notFoundComponent: NotFoundScreen,
});

function RootLayout() {
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
        <Outlet />
      </main>
      <Footer />
      <FirstVisitCityPrompt />
    </div>
  );
}
