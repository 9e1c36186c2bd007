import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient, createTrpcClient, createTrpcUtils, trpc } from './lib/trpc.ts';
import { createAppRouter } from './router.tsx';
import './styles.css';

async function start() {
  if (import.meta.env.MODE === 'mock') {
    // `npm run dev:mock`: every procedure answers from the same msw handlers the client tests use.
    const { startMockWorker } = await import('../test/mocks/browser.ts');
    await startMockWorker();
  }
  const queryClient = createQueryClient();
  const trpcClient = createTrpcClient();
  const router = createAppRouter({ queryClient, trpcUtils: createTrpcUtils(queryClient, trpcClient) });

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </trpc.Provider>
    </StrictMode>,
  );
}

void start();
