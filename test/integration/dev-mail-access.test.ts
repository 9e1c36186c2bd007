import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listen } from '../helpers/listen.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

/** What @hono/node-server passes as the request's env: the Node request, with its socket. */
const connectionFrom = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

describe('the development mailbox outside production', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), { NODE_ENV: 'development' });
  });
  afterEach(async () => {
    await t.close();
  });

  it('is shown to this machine (loopback connections)', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await t.app.request('http://localhost/dev/mail', {}, connectionFrom(address));
      expect(res.status, address).toBe(200);
    }
  });

  it('answers 404 to anyone on the network: its mails hold password-reset links', async () => {
    for (const address of ['192.168.1.20', '203.0.113.9', '::ffff:10.0.0.3']) {
      const res = await t.app.request(
        'http://localhost/dev/mail',
        // A forged forwarding header does not make a remote client local.
        { headers: { 'x-forwarded-for': '127.0.0.1' } },
        connectionFrom(address),
      );
      expect(res.status, address).toBe(404);
      expect(await res.text()).not.toContain('Development mailbox');
    }
  });

  it('refuses a loopback connection whose Host is another name: a DNS-rebinding page reads nothing', async () => {
    const server = await listen(t);
    const port = new URL(server.url).port;
    try {
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        `localhost.evil.example:${port}`,
        '127.0.0.1.nip.io',
      ]) {
        const res = await getWithHost(`${server.url}/dev/mail`, host);
        expect(res.status, host).toBe(403);
        expect(res.body, host).not.toContain('Development mailbox');
      }
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
        const res = await getWithHost(`${server.url}/dev/mail`, host);
        expect(res.status, host).toBe(200);
        expect(res.body, host).toContain('Development mailbox');
      }
    } finally {
      await server.close();
    }
  });
});

/** A GET over a real socket with the Host header a browser would send for that name. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}
