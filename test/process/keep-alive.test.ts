import { Agent, request } from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { faultDataDir, startFaultServer } from '../helpers/fault-process.ts';

const scratch = faultDataDir();
afterAll(() => scratch.remove());

/**
 * A connection a proxy (or any client) keeps open and reuses after a pause is still open: with Node's
 * 5-second default the server closed it under the client, and a request sent just then was reset (seen in
 * the e2e suite as "socket hang up", and a 502 behind Caddy, which keeps idle connections 2 minutes).
 */
it('keeps an idle keep-alive connection open past Node’s 5-second default', async () => {
  const server = await startFaultServer(scratch.dataDir);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await get(server.baseURL, agent);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const second = await get(server.baseURL, agent);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.reusedSocket, 'the second request went over the first one’s connection').toBe(true);
  } finally {
    agent.destroy();
    await server.stop();
  }
});

function get(baseURL: string, agent: Agent): Promise<{ status: number; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseURL}/healthz`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}
