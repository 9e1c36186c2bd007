import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { type createTrpcClient, trpc } from './lib/trpc.ts';
import type { createAppRouter } from './router.tsx';

/** Replaces the server's shell in `#root` with the app (start-app.tsx calls it once the first route is loaded). */
export function renderApp(
  router: ReturnType<typeof createAppRouter>,
  queryClient: QueryClient,
  trpcClient: ReturnType<typeof createTrpcClient>,
): void {
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
