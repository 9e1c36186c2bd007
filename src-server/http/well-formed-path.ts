import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';

/**
 * Answers 400 to a path whose percent-encoding does not decode (`/events/%`, `/trpc/%`, `/event/%ff`:
 * a lone `%`, or bytes that are not UTF-8). Everything behind it may then decode a path or a path
 * segment without a try: before, the client pages and tRPC's adapter threw a URIError there, which
 * became a 500 and an error in the log for what is the client's mistake.
 */
export function wellFormedPath(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = c.req.url;
    if (!url.includes('%')) return next();
    try {
      decodeURIComponent(new URL(url).pathname);
    } catch {
      return c.json({ error: { message: 'Bad request' } }, 400);
    }
    return next();
  };
}
