import { createTRPCMsw, httpLink } from 'msw-trpc';
import type { AppRouter } from '../../src-server/trpc/root.ts';

/**
 * msw answers for tRPC procedures, used by `npm run dev:mock` and by client tests. Each area adds
 * handlers with representative data so front-end work needs no server.
 */
export const trpcMsw = createTRPCMsw<AppRouter>({ links: [httpLink({ url: '/trpc' })] });

export const trpcHandlers = [];
