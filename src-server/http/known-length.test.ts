import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env.ts';
import { knownLength } from './known-length.ts';

describe('known length for tRPC answers', () => {
  it('adds the length and keeps status, body and every header, several cookies included', async () => {
    const app = new Hono<AppEnv>();
    app.use(knownLength({ readAnyBody: true }));
    app.get('/answer', () => {
      const headers = new Headers({ 'content-type': 'application/json', vary: 'accept' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      return new Response(JSON.stringify({ result: { data: 'ok' } }), { status: 201, headers });
    });
    const res = await app.request('/answer');
    const body = JSON.stringify({ result: { data: 'ok' } });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe(body);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(res.headers.get('vary')).toBe('accept');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });
});

describe('known length for other answers', () => {
  it('leaves a streamed body unread and of unknown length', async () => {
    const app = new Hono<AppEnv>();
    app.use(knownLength());
    let pulled = 0;
    app.get('/stream', () => {
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new TextEncoder().encode('chunk'));
          if (pulled === 3) controller.close();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'application/octet-stream' } });
    });
    const res = await app.request('/stream');
    expect(res.headers.get('content-length')).toBeNull();
    expect(await res.text()).toBe('chunkchunkchunk');
  });
});

// As in the app: compress() outside, knownLength() inside, answers built as tRPC builds them (a string
// in `new Response`), served by @hono/node-server, whose own Response class the handlers then get.
describe('known length behind @hono/node-server and compress()', () => {
  const small = JSON.stringify({ result: { data: '₹1,499 ok' } }); // bytes, not characters
  const large = JSON.stringify({ result: { data: 'Gold Circle '.repeat(200) } });
  let server: ServerType;
  let origin: string;
  const fetchResponse = globalThis.Response;
  const fetchRequest = globalThis.Request;

  beforeAll(async () => {
    const app = new Hono<AppEnv>();
    app.use(compress());
    app.use(knownLength());
    app.get(
      '/small',
      () => new Response(small, { status: 202, headers: { 'content-type': 'application/json' } }),
    );
    app.get('/large', () => new Response(large, { headers: { 'content-type': 'application/json' } }));
    app.get('/empty', () => new Response(null, { status: 204 }));
    server = await new Promise<ServerType>((resolve) => {
      const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    // serve() installs its Response and Request as globals; give the other tests back the standard ones.
    globalThis.Response = fetchResponse;
    globalThis.Request = fetchRequest;
  });

  /** The raw answer over HTTP: status, headers and the bytes as sent (no transparent decompression). */
  function get(path: string) {
    return new Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }>(
      (resolve, reject) => {
        request(`${origin}${path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
          );
        })
          .on('error', reject)
          .end();
      },
    );
  }

  it('sends a small answer uncompressed, with its length in bytes', async () => {
    const res = await get('/small');
    expect(res.status).toBe(202);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(small)));
    expect(res.bytes.toString('utf8')).toBe(small);
  });

  it('still compresses a large answer', async () => {
    const res = await get('/large');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.bytes).toString('utf8')).toBe(large);
  });

  it('leaves an empty answer empty', async () => {
    const res = await get('/empty');
    expect(res.status).toBe(204);
    expect(res.bytes.byteLength).toBe(0);
  });
});
