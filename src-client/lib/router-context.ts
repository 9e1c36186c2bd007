import type { QueryClient } from '@tanstack/react-query';
import type { TrpcUtils } from './trpc.ts';

/** What every route's loader and `beforeLoad` receive (given to the router in router.tsx). */
export interface RouterContext {
  queryClient: QueryClient;
  trpcUtils: TrpcUtils;
}
