import { yieldToMain } from './lib/next-task.ts';

/**
 * The app's start-up: main.tsx imports this module once the server's first paint (its hero) is on
 * screen, so none of what follows (React, the router, tRPC, the buyer's routes) is fetched or
 * evaluated before the page's largest paint.
 *
 * This module imports nothing up front: its groups of modules are imported and evaluated one at a
 * time, with a yield to the browser between them. Evaluated together they were one task of 130 ms at
 * Lighthouse's 4× on a quiet machine and 300 ms on a busy one, and Lighthouse counts each such task
 * four times over in its total blocking time (issue 39: `/` scored 86 at load 15 for that reason).
 */
export async function startApp() {
  if (import.meta.env.MODE === 'mock') {
    // `npm run dev:mock`: every procedure answers from the same msw handlers the client tests use.
    const { startMockWorker } = await import('../test/mocks/browser.ts');
    await startMockWorker();
  }
  // The renderer, React Query and tRPC's client.
  const { createQueryClient, createTrpcClient, createTrpcUtils } = await import('./lib/trpc.ts');
  await yieldToMain();
  const queryClient = createQueryClient();
  const trpcClient = createTrpcClient();
  const trpcUtils = createTrpcUtils(queryClient, trpcClient);
  const [{ primeFromPage }, { keepCityCookie }] = await Promise.all([
    import('./lib/initial-data.ts'),
    import('./lib/city-storage.ts'),
  ]);
  // The first screen's data came inside the page: the loaders below find it and fetch nothing.
  primeFromPage(trpcUtils);
  keepCityCookie();
  await yieldToMain();
  // The router's own code, then the app's routes and screens, each in a task of its own.
  await import('@tanstack/react-router');
  await yieldToMain();
  const { createAppRouter } = await import('./router.tsx');
  await yieldToMain();
  if (warmTimeZone()) await yieldToMain();
  // Building the router and matching the first route is another task.
  const router = createAppRouter({ queryClient, trpcUtils });
  // The server's static shell (src-server/http/page-shell.ts) stays on screen until the first route's
  // data and code are here, so React's first render replaces it with the whole page at once.
  await router.load().catch(() => undefined);
  const { renderApp } = await import('./render-app.tsx');
  // The home and event pages' data now come with the page, so the load above can finish before the
  // browser has painted anything: let it paint the shell first (its hero is the largest paint), then
  // replace it, rather than hold the first paint until the whole page has rendered (Lighthouse's first
  // paint went from 1.4 to 2.2 s on `/` without this). A hidden tab gets no frames: 50 ms at most.
  await afterNextPaint();
  renderApp(router, queryClient, trpcClient);
}

/**
 * An event page's first render formats its dates in India's time zone (shared/dates.ts), and the
 * browser's first time-zone formatter loads its zone data: 70–120 ms at 4× inside that render. Here it
 * is a task of its own, before the render; the render's own formatter then finds the data loaded.
 */
function warmTimeZone(): boolean {
  if (!location.pathname.startsWith('/events/')) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kolkata', timeZoneName: 'longOffset' }).format(0);
  } catch {
    // An engine without the zone or the option formats later, as before.
  }
  return true;
}

function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 50);
  });
}
