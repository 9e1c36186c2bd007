import { constants, deflateSync, gzipSync } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { parseAccept } from 'hono/utils/accept';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';
import type { AppEnv } from '../app-env.ts';
import { stringBodyOf } from './known-length.ts';

/** Under this many bytes an answer goes out as it is (Hono's `compress()` default). */
const THRESHOLD = 1024;
/**
 * Answers of known length up to this size are compressed in one synchronous zlib call (under a
 * millisecond); larger ones, and answers of unknown length, go through Hono's streaming `compress()`.
 */
export const SYNC_COMPRESS_MAX_BYTES = 64 * 1024;
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/**
 * Hono's `compress()` with a fast path for the answers the app makes most: a JSON or HTML answer of
 * known length (`knownLength`, mounted inside this) is compressed with one `gzipSync` into a byte
 * body, which @hono/node-server writes straight to the socket. Hono's own pipes every body through a
 * web CompressionStream and sends a streamed Fetch Response; for a 7 KB catalogue page that machinery
 * cost more than building the page (issue 25: a 24-card city page against the demo's 2 cards, which
 * stay under the 1 KB threshold and are never compressed, docs/benchmarks.md). Same rules as Hono's:
 * the 1 KB threshold, compressible types only, not for HEAD, 206, `no-transform` or an answer already
 * encoded; `Vary: Accept-Encoding`; gzip preferred over deflate; a strong ETag made weak.
 */
export function compressAnswers(): MiddlewareHandler<AppEnv> {
  const streaming = compress({ threshold: THRESHOLD });
  return (c, next) =>
    streaming(c, async () => {
      await next();
      const res = c.res;
      const length = Number(res.headers.get('content-length') ?? Number.NaN);
      if (
        !(length >= THRESHOLD && length <= SYNC_COMPRESS_MAX_BYTES) ||
        res.status === 206 ||
        c.req.method === 'HEAD' ||
        res.headers.has('content-encoding') ||
        res.headers.has('transfer-encoding') ||
        !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(res.headers.get('content-type') ?? '') ||
        NO_TRANSFORM.test(res.headers.get('cache-control') ?? '')
      ) {
        return; // Hono's compress() decides, as before.
      }
      const encoding = selectEncoding(c.req.header('accept-encoding'));
      if (!encoding) return; // Hono's compress() adds the Vary header and sends it as it is.
      const headers = new Headers(res.headers); // a Headers object keeps several Set-Cookie apart
      const vary = headers.get('vary');
      if (vary !== '*' && !(vary && VARY_ACCEPT_ENCODING.test(vary))) {
        headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
      }
      const plain = stringBodyOf(res) ?? new Uint8Array(await res.arrayBuffer());
      const options = zlibOptions(length);
      const body = encoding === 'gzip' ? gzipSync(plain, options) : deflateSync(plain, options);
      headers.set('content-encoding', encoding);
      headers.set('content-length', String(body.byteLength));
      const etag = headers.get('etag');
      if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
      c.res = undefined; // see knownLength: assigning over a response copies it into yet another
      c.res = new Response(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), {
        status: res.status,
        headers,
      });
    });
}

/**
 * A window no larger than the answer: zlib sets up (and clears) its whole window and hash table per
 * call, which for a few KB cost more than the compressing itself; with the answer inside the window
 * the output is the same size.
 */
function zlibOptions(length: number) {
  const windowBits = Math.min(15, Math.max(10, Math.ceil(Math.log2(length + 262))));
  return {
    windowBits,
    memLevel: Math.min(8, Math.max(1, windowBits - 7)),
    level: constants.Z_DEFAULT_COMPRESSION,
  };
}

/** Hono's choice: an encoding with q=1 at once, else the highest q; gzip before deflate. */
function selectEncoding(header: string | undefined): 'gzip' | 'deflate' | undefined {
  if (header === undefined) return undefined;
  const accepts = parseAccept(header);
  const wildcard = accepts.find((a) => a.type === '*')?.q;
  let best: { encoding: 'gzip' | 'deflate'; q: number } | undefined;
  for (const encoding of ['gzip', 'deflate'] as const) {
    const q = accepts.find((a) => a.type.toLowerCase() === encoding)?.q ?? wildcard ?? 0;
    if (q === 1) return encoding;
    if (q > 0 && (!best || q > best.q)) best = { encoding, q };
  }
  return best?.encoding;
}
