import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env.ts';
import { requestContext } from '../http/request-context.ts';
import { createLogger } from '../logger.ts';
import { requestInfo } from './context.ts';

function appReportingIp(trustProxy: boolean) {
  const app = new Hono<AppEnv>();
  app.use(requestContext(createLogger('silent')));
  app.get('/ip', (c) => c.text(requestInfo(c, new Headers(), trustProxy).ip));
  return app;
}

describe('the client address used for rate limits', () => {
  it('ignores X-Forwarded-For unless a trusted proxy sets it, so a client cannot pick its own address', async () => {
    const res = await appReportingIp(false).request('/ip', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    // app.request() has no socket, so the honest answer is 'unknown', never the client's claim.
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('unknown');
  });

  it('uses the first X-Forwarded-For hop behind a trusted proxy (TRUST_PROXY=true)', async () => {
    const res = await appReportingIp(true).request('/ip', {
      headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.2' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('203.0.113.9');
  });
});
