import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../app-env.ts';

/**
 * Refuses request bodies over `maxSize` bytes with 413, like Hono's `bodyLimit`, which it uses for
 * bodies of unknown length (chunked uploads are counted as they arrive). What it adds is reading the
 * answer from the headers whenever they give it: `bodyLimit` first looks at `request.body`, and on
 * @hono/node-server that one property turns the light request object into a full Fetch `Request` with
 * a body stream and an AbortController, for every request, GETs included. That was a fifth of the CPU
 * of a signed-in tRPC call (docs/benchmarks.md).
 */
export function bodySizeLimit(
  maxSize: number,
  onTooLarge: (c: Context<AppEnv>) => Response | Promise<Response>,
): MiddlewareHandler<AppEnv> {
  const streamed = bodyLimit({ maxSize, onError: onTooLarge });
  return async (c, next) => {
    const chunked = c.req.header('transfer-encoding') !== undefined;
    const declared = c.req.header('content-length');
    // HTTP/1.1 frames a body without Transfer-Encoding by its Content-Length, so the header is the size.
    if (declared !== undefined && !chunked) return Number(declared) > maxSize ? onTooLarge(c) : next();
    // No handler reads a GET or HEAD body.
    if (!chunked && (c.req.method === 'GET' || c.req.method === 'HEAD')) return next();
    return streamed(c, next);
  };
}
