import { QueryClientProvider } from '@tanstack/react-query';
import { httpLink } from '@trpc/client';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createQueryClient, trpc } from '../../src-client/lib/trpc.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Clients = {
  queryClient: ReturnType<typeof createQueryClient>;
  trpcClient: ReturnType<typeof trpc.createClient>;
};

let mounted: { root: Root; container: HTMLElement } | undefined;

/**
 * The app's React Query and tRPC clients as the component tests use them: tRPC talks to `/trpc` on the
 * page's origin, where msw answers, one procedure a request (msw-trpc matches one, so no batching).
 */
export function testClients(): Clients {
  const queryClient = createQueryClient();
  return {
    queryClient,
    trpcClient: trpc.createClient({ links: [httpLink({ url: `${window.location.origin}/trpc` })] }),
  };
}

/**
 * Mounts `node` inside the app's tRPC and React Query providers (with `clients`, for a test that made the
 * app's router with them) and returns the element it is mounted in.
 */
export async function mountWithTrpc(node: ReactNode, clients: Clients = testClients()): Promise<HTMLElement> {
  const { queryClient, trpcClient } = clients;
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted = { root, container };
  await act(async () => {
    root.render(
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>{node}</QueryClientProvider>
      </trpc.Provider>,
    );
  });
  return container;
}

/** Unmounts what `mountWithTrpc` mounted last and removes its element (each test's afterEach). */
export function unmountMounted(): void {
  if (!mounted) return;
  const { root, container } = mounted;
  mounted = undefined;
  act(() => root.unmount());
  container.remove();
}

/** Waits, letting React work, until `check` gives something truthy; fails naming `what` and the page's text. */
export async function waitFor<T>(
  check: () => T | undefined | null | false,
  what: string,
  ms = 5_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${document.body.textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 20)));
  }
}
