import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { keepCityCookie } from './lib/city-storage.ts';
import { primeFromPage } from './lib/initial-data.ts';
import { createQueryClient, createTrpcClient, createTrpcUtils, trpc } from './lib/trpc.ts';
import { yieldToMain } from './lib/yield-to-main.ts';
import { createAppRouter } from './router.tsx';

/**
 * The app's start-up: main.tsx imports this module once the server's first paint (its hero) is on
 * screen, so none of what follows (React, the router, tRPC, the buyer's routes) is fetched or
 * evaluated before the page's largest paint.
 */
export async function startApp() {
  if (import.meta.env.MODE === 'mock') {
    // `npm run dev:mock`: every procedure answers from the same msw handlers the client tests use.
    const { startMockWorker } = await import('../test/mocks/browser.ts');
    await startMockWorker();
  }
  const queryClient = createQueryClient();
  const trpcClient = createTrpcClient();
  const trpcUtils = createTrpcUtils(queryClient, trpcClient);
  // The first screen's data came inside the page: the loaders below find it and fetch nothing.
  primeFromPage(trpcUtils);
  keepCityCookie();
  // Evaluating the entry's modules is one task; building the router and matching the first route
  // another (on a slow phone they were one 250–380 ms task, most of the page's blocking time).
  await yieldToMain();
  const router = createAppRouter({ queryClient, trpcUtils });
  // The server's static shell (src-server/http/page-shell.ts) stays on screen until the first route's
  // data and code are here, so React's first render replaces it with the whole page at once.
  await router.load().catch(() => undefined);
  // The home and event pages' data now come with the page, so the load above can finish before the
  // browser has painted anything: let it paint the shell first (its hero is the largest paint), then
  // replace it, rather than hold the first paint until the whole page has rendered (Lighthouse's first
  // paint went from 1.4 to 2.2 s on `/` without this). A hidden tab gets no frames: 50 ms at most.
  await afterNextPaint();

  const root = createRoot(document.getElementById('root')!);
  // As a transition, React renders the first page in slices that let the browser breathe (a phone's
  // main thread was blocked for 200 ms in one piece); the shell stays on screen until it commits.
  startTransition(() => {
    root.render(
      <StrictMode>
        <trpc.Provider client={trpcClient} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </trpc.Provider>
      </StrictMode>,
    );
  });
}

function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 50);
  });
}
