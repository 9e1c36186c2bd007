import { inject } from 'vitest';

export interface E2eServer {
  baseURL: string;
  /** The server's data folder: its database, app secret and mailbox. */
  dataDir: string;
}

/**
 * The e2e server of the worker running this file. e2e-global.ts starts one server per worker, so a server
 * serves one test file at a time, as the single shared server did when the files ran one after another.
 */
export function e2eServer(): E2eServer {
  const servers = inject('e2eServers');
  const poolId = Number(process.env.VITEST_POOL_ID ?? '1');
  return servers[(poolId - 1) % servers.length]!;
}
