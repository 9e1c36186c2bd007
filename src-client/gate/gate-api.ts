import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../src-server/trpc/root.ts';
import { type GateApi, Unreachable } from './gate-engine.ts';

/**
 * The gate's calls, unbatched and outside React Query: the engine decides what a failure means. No
 * answer at all (offline, DNS, a proxy's 502/503/504) is `Unreachable`; anything the server said is not.
 */
export function createGateApi(url = '/trpc'): GateApi {
  const client = createTRPCClient<AppRouter>({ links: [httpLink({ url })] });
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof TRPCClientError) {
        const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
        if (status === undefined || status >= 502) throw new Unreachable(error.message);
      }
      throw error;
    }
  };
  return {
    sync: (input) => guard(() => client.gate.sync.query(input)),
    scan: (input) => guard(() => client.gate.scan.mutate(input)),
    upload: (input) => guard(() => client.gate.upload.mutate(input)),
    undo: (input) => guard(() => client.gate.undo.mutate(input)),
  };
}
