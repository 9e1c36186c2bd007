import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env.ts';
import { createLogger } from '../logger.ts';
import { requestContext, requestIdHeader, requestLogger } from './request-context.ts';

function appWritingInto(lines: Record<string, unknown>[], trustProxy = false) {
  const logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) }).child({
    worker: 1,
  });
  const app = new Hono<AppEnv>();
  app.use(requestContext(logger, trustProxy));
  app.use(requestIdHeader());
  app.post('/sign-in', async (c) => {
    requestLogger(c).warn({ email: 'asha@example.in', attempt: 2 }, 'sign-in refused');
    return c.json({ ok: false }, 401);
  });
  app.get('/quiet', (c) => c.text('ok'));
  return app;
}

describe('request context', () => {
  it('writes one access line per request, with the request id, and keeps the logger bindings', async () => {
    const lines: Record<string, unknown>[] = [];
    const res = await appWritingInto(lines).request('/quiet?token=secret-in-query');
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      requestId: id,
      method: 'GET',
      path: '/quiet',
      status: 200,
      worker: 1,
    });
    // The path is logged without its query string, which may carry tokens.
    expect(JSON.stringify(lines)).not.toContain('secret-in-query');
  });

  it("binds a handler's lines to the request id and still redacts personal data in them", async () => {
    const lines: Record<string, unknown>[] = [];
    const res = await appWritingInto(lines).request('/sign-in', { method: 'POST' });
    const id = res.headers.get('x-request-id');
    const refused = lines.find((line) => line.msg === 'sign-in refused');
    expect(refused).toMatchObject({ requestId: id, attempt: 2, email: '[redacted]', worker: 1 });
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({ requestId: id, status: 401 });
  });

  it('logs the client address (through a trusted proxy only) and the user agent', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9, 10.0.0.1', 'user-agent': 'Mozilla/5.0 (Test)' };
    const trusted: Record<string, unknown>[] = [];
    await appWritingInto(trusted, true).request('/quiet', { headers });
    expect(trusted[0]).toMatchObject({ ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (Test)' });
    // Without a trusted proxy the header is the client's own word and is not logged as its address.
    const direct: Record<string, unknown>[] = [];
    await appWritingInto(direct).request('/quiet', { headers });
    expect(direct[0]?.ip).not.toBe('203.0.113.9');
  });
});
