import type { Logger } from './logger.ts';

/** What the Hono app keeps per request, shared by app.ts and the routes and middleware mounted on it. */
export type AppEnv = {
  Variables: {
    requestId: string;
    /** The app's logger; `requestLogger(c)` binds it to the request id when something logs. */
    baseLogger: Logger;
    logger?: Logger;
  };
};
