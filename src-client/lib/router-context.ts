import type { QueryClient } from '@tanstack/react-query';
import type { TrpcUtils } from './trpc.ts';

/** What every route's loader and `beforeLoad` receive (given to the router in router.tsx). */
export interface RouterContext {
  queryClient: QueryClient;
  trpcUtils: TrpcUtils;
  /**
   * For a path the loaded routes do not match, loads the rest (the console, admin and gate: router.tsx)
   * and answers whether the path then matches; false at once for a matched path.
   */
  routesFor?: (pathname: string) => Promise<boolean>;
}
