import { QueryClient } from '@tanstack/react-query';
import { httpBatchLink, httpLink, type TRPCClientErrorLike } from '@trpc/client';
import { createTRPCQueryUtils, createTRPCReact } from '@trpc/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { MAX_BATCH_ITEMS } from '../../shared/trpc-batch.ts';
import type { AppRouter } from '../../src-server/trpc/root.ts';

/** React hooks for every procedure, typed from the server's router: no hand-written API contract. */
export const trpc = createTRPCReact<AppRouter>();

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type ApiError = TRPCClientErrorLike<AppRouter>;

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Not-found and auth answers will not change on a retry.
        retry: (failures, error) => failures < 2 && !isClientError(error),
      },
    },
  });
}

/** `url` is the page's own `/trpc`; tests give a server's full address. */
export function createTrpcClient(url = '/trpc') {
  return trpc.createClient({
    // msw-trpc answers one procedure per request, so `dev:mock` sends them unbatched.
    links: [
      import.meta.env.MODE === 'mock' ? httpLink({ url }) : httpBatchLink({ url, maxItems: MAX_BATCH_ITEMS }),
    ],
  });
}

export function createTrpcUtils(queryClient: QueryClient, client: ReturnType<typeof createTrpcClient>) {
  return createTRPCQueryUtils({ queryClient, client });
}
export type TrpcUtils = ReturnType<typeof createTrpcUtils>;

function isClientError(error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** The field messages the server attached to an error (zod or domain), keyed by field name. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  return (error as { data?: { fieldErrors?: Record<string, string> } } | null)?.data?.fieldErrors ?? {};
}
