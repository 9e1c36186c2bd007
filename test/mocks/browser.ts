import { setupWorker } from 'msw/browser';
import { trpcHandlers } from './trpc-handlers.ts';

export async function startMockWorker() {
  await setupWorker(...trpcHandlers).start({ onUnhandledRequest: 'bypass' });
}
