import type { ReactNode } from 'react';
import { useRenderInSteps } from '../lib/yield-to-main.ts';
import { FirstVisitCityPrompt } from './first-visit-city-prompt.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

/**
 * The buyer's storefront around a page: the skip link, the header (logo, city, search, account), the
 * footer and the first visit's city prompt. The buyer's layout route draws it (routes/buyer/layout.tsx),
 * and so does the root when nothing matched or the root itself failed, so a lost visitor keeps a way home.
 */
export function StorefrontChrome({ children }: { children: ReactNode }) {
  // The footer (below the page, its links and badges) is drawn in the task after the page's first
  // render, which on a slow phone is then that much shorter (issue 39); nothing above it moves.
  const footer = useRenderInSteps(1, 0, 1) > 0;
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <Header />
      <main id="main" className="flex-1">
        {children}
      </main>
      {footer && <Footer />}
      <FirstVisitCityPrompt />
    </div>
  );
}

/** The first stop of the keyboard on every page, whichever chrome it wears. */
export function SkipLink() {
  return (
    <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50">
      Skip to content
    </a>
  );
}
