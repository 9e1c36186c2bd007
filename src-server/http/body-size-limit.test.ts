import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env.ts';
import { bodySizeLimit } from './body-size-limit.ts';

function app() {
  const hono = new Hono<AppEnv>();
  hono.use(bodySizeLimit(10, (c) => c.json({ error: 'too large' }, 413)));
  hono.all('/echo', async (c) => c.text(await c.req.text()));
  return hono;
}

describe('request body size limit', () => {
  it('refuses a body whose Content-Length is over the limit', async () => {
    const res = await app().request('/echo', {
      method: 'POST',
      headers: { 'content-length': '11' },
      body: 'x'.repeat(11),
    });
    expect(res.status).toBe(413);
  });

  it('counts a body of unknown length as it arrives', async () => {
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 3; i += 1) controller.enqueue(new TextEncoder().encode('xxxx'));
        controller.close();
      },
    });
    const res = await app().request('/echo', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('passes bodies within the limit to the handler intact, and GETs untouched', async () => {
    const declared = await app().request('/echo', {
      method: 'POST',
      headers: { 'content-length': '5' },
      body: 'hello',
    });
    expect(await declared.text()).toBe('hello');
    const unknownLength = await app().request('/echo', { method: 'POST', body: 'hi there' });
    expect(await unknownLength.text()).toBe('hi there');
    const get = await app().request('/echo');
    expect(get.status).toBe(200);
  });
});
