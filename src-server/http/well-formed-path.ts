import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';

export const NUL_IN_ADDRESS_MESSAGE = 'Bad request: the address holds a null character (%00)';

/**
 * Answers 400 to a path whose percent-encoding does not decode (`/events/%`, `/trpc/%`, `/event/%ff`:
 * a lone `%`, or bytes that are not UTF-8). Everything behind it may then decode a path or a path
 * segment without a try: before, the client pages and tRPC's adapter threw a URIError there, which
 * became a 500 and an error in the log for what is the client's mistake.
 *
 * And to an address holding U+0000 (`%00`, in the path or the query; once parsed, a URL holds that
 * character no other way): PostgreSQL's text cannot hold it, so a route that looked an id up with it
 * (`/api/tickets/a%00b.pdf`, the simulator's orders, the CSV exports) failed its statement, a 500 on
 * PostgreSQL. No address of this app means it (tRPC's inputs: trpc/nul-in-text.ts).
 */
export function wellFormedPath(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = c.req.url;
    if (!url.includes('%')) return next();
    if (/%00/.test(url)) return c.json({ error: { message: NUL_IN_ADDRESS_MESSAGE } }, 400);
    try {
      decodeURIComponent(new URL(url).pathname);
    } catch {
      return c.json({ error: { message: 'Bad request' } }, 400);
    }
    return next();
  };
}
