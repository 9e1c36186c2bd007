import { createTrpcClient } from '../lib/trpc.ts';
import { type GateApi, Unreachable } from './gate-engine.ts';

/**
 * The gate's calls, outside React Query: the engine decides what a failure means. No answer at all
 * (offline, DNS, a proxy's 502/503/504) is `Unreachable`; anything the server said is not. Uses the app's
 * own tRPC client (importing @trpc/client's vanilla factory here would reshuffle the home page's chunks).
 */
export function createGateApi(url = '/trpc'): GateApi {
  const client = createTrpcClient(url);
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      const e = error as { name?: string; data?: { httpStatus?: number } | null };
      if (e?.name === 'TRPCClientError') {
        const status = e.data?.httpStatus;
        if (status === undefined || status >= 502) throw new Unreachable(String((error as Error).message));
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
