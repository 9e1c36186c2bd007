import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { allowLocalServers } from '../mocks/server.ts';
import type { TestApp } from './test-app.ts';

/**
 * Serves a test app on a loopback port, for tests that need real sockets: separate connections at
 * once, or the client address and Host header a browser would send. msw lets requests to it through.
 */
export function listen(t: TestApp): Promise<{ url: string; close: () => Promise<void> }> {
  allowLocalServers();
  return new Promise((resolve) => {
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      }),
    );
  });
}
