import { trpcServer } from '@hono/trpc-server';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { IMAGE_MESSAGES, MAX_UPLOAD_BYTES } from '../shared/event-images.ts';
import { MAX_BATCH_ITEMS } from '../shared/trpc-batch.ts';
import type { AppEnv } from './app-env.ts';
import type { AppDeps } from './deps.ts';
import { DomainError } from './errors.ts';
import { bodySizeLimit } from './http/body-size-limit.ts';
import { serveClient } from './http/client.ts';
import { compressAnswers } from './http/compress-answers.ts';
import { devMailRoutes } from './http/dev-mail.ts';
import { IMAGE_UPLOAD_PATH, mountEventImages } from './http/event-images.ts';
import { googleOAuthRoutes } from './http/google-oauth.ts';
import { databasePing, HEALTHY, healthCheckFastPath } from './http/health-check.ts';
import { invoiceFileRoutes } from './http/invoice-files.ts';
import { knownLength } from './http/known-length.ts';
import { mountOperations } from './http/operations.ts';
import { ordersCsvRoutes } from './http/orders-csv.ts';
import { payoutCsvRoutes } from './http/payout-csv.ts';
import { publicQueryCache } from './http/public-query-cache.ts';
import { failureLog } from './http/repeated-failures.ts';
import { requestContext, requestIdHeader, requestLogger } from './http/request-context.ts';
import { mountTestOrder } from './http/test-order.ts';
import { ticketFileRoutes } from './http/ticket-files.ts';
import { mountWaitingRoomStatus } from './http/waiting-room.ts';
import { mountPaymentWebhooks } from './http/webhooks.ts';
import { wellFormedPath } from './http/well-formed-path.ts';
import { mountSimulator } from './integrations/simulator/routes.ts';
import { createContext } from './trpc/context.ts';
import { appRouter } from './trpc/root.ts';

/** Largest request body accepted anywhere (forms and webhooks are a few KB). */
export const MAX_BODY_BYTES = 64 * 1024;

/** The whole HTTP app, built from its dependencies so tests can run the real thing on a fresh database. */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const isProduction = deps.env.NODE_ENV === 'production';

  const securityHeaders = secureHeaders(securityHeaderOptions(isProduction));
  // First: a health probe needs none of the stack below (http/health-check.ts).
  const ping = databasePing(deps);
  app.use('/healthz', healthCheckFastPath(ping, securityHeaders));
  // Before every middleware: the request a waiting crowd repeats most (ADR 0026) answers without the
  // access line, the security headers and the compression check the rest pay for. It sets its own
  // headers (a small private JSON answer: no-store, nosniff).
  mountWaitingRoomStatus(app, deps);
  app.use(requestContext(deps.logger, deps.env.TRUST_PROXY));
  // Outside the header middlewares: a cached answer already carries every header they add.
  app.use('/trpc/*', publicQueryCache(deps));
  app.use(securityHeaders);
  app.use(requestIdHeader());
  app.use(wellFormedPath());
  app.use(compressAnswers());
  app.use('/trpc/*', knownLength({ readAnyBody: true }));
  app.use(knownLength());
  // Everything that accepts a body: at most MAX_BODY_BYTES (an image upload MAX_UPLOAD_BYTES), and
  // writes only from our own origin.
  const limitBody = bodySizeLimit(MAX_BODY_BYTES, (c) => c.json(tooLarge, 413));
  const limitUpload = bodySizeLimit(MAX_UPLOAD_BYTES, (c) =>
    c.json({ error: { message: IMAGE_MESSAGES.tooLarge } }, 413),
  );
  const ownOriginWrites = sameOriginWrites(deps);
  app.use('/trpc/*', limitBody, ownOriginWrites);
  app.use(
    '/api/*',
    (c, next) => (IMAGE_UPLOAD_PATH.test(c.req.path) ? limitUpload : limitBody)(c, next),
    ownOriginWrites,
  );

  app.get('/healthz', async (c) => {
    await ping();
    return c.json(HEALTHY);
  });
  mountOperations(app, deps);

  const logFailure = failureLog(() => deps.clock.now());
  app.use(
    '/trpc/*',
    trpcServer({
      router: appRouter,
      endpoint: '/trpc',
      maxBatchSize: MAX_BATCH_ITEMS,
      createContext: (opts, c) => createContext(deps, opts, c),
      onError: ({ error, path, ctx }) => {
        if (error.code !== 'INTERNAL_SERVER_ERROR') return;
        logFailure(ctx?.logger ?? deps.logger, error.cause ?? error, 'procedure failed', { path });
      },
    }),
  );

  app.onError((err, c) => {
    if (err instanceof DomainError) return c.json({ error: { message: err.message } }, statusOf(err));
    logFailure(requestLogger(c), err, 'unhandled error', { path: c.req.path });
    return c.json({ error: { message: 'Something went wrong. Please try again.' } }, 500);
  });

  app.route('/api/tickets', ticketFileRoutes(deps));
  app.route('/api/invoices', invoiceFileRoutes(deps));
  mountEventImages(app, deps);
  app.route('/api/organiser', ordersCsvRoutes(deps));
  app.route('/api/organiser', payoutCsvRoutes(deps));

  mountPaymentWebhooks(app, deps);
  mountSimulator(app, deps);
  mountTestOrder(app, deps);

  app.route('/api/auth/google', googleOAuthRoutes(deps));
  app.route('/dev/mail', devMailRoutes(deps));

  if (deps.clientDir) serveClient(app, deps);
  else app.notFound((c) => c.json({ error: { message: 'Not found' } }, 404));

  return app;
}

function securityHeaderOptions(isProduction: boolean): Parameters<typeof secureHeaders>[0] {
  return {
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      // 'wasm-unsafe-eval' lets the gate's QR decoder (zxing-wasm, served from here) compile; it allows
      // WebAssembly only, never JavaScript eval (docs/decisions/0022).
      scriptSrc: ["'self'", "'wasm-unsafe-eval'", 'https://checkout.razorpay.com'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      connectSrc: ["'self'", 'https://lumberjack.razorpay.com'],
      frameSrc: ["'self'", 'https://api.razorpay.com', 'https://www.google.com', 'https://maps.google.com'],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
    },
    strictTransportSecurity: isProduction ? 'max-age=63072000; includeSubDomains' : false,
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
  };
}

const tooLarge = { error: { message: 'Request body is too large' } };

const STATUS_BY_CODE = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  BAD_REQUEST: 400,
  TOO_MANY_REQUESTS: 429,
  PRECONDITION_FAILED: 412,
} as const;

function statusOf(err: DomainError) {
  return STATUS_BY_CODE[err.code];
}

/**
 * Refuses state-changing requests sent by another site's page (CSRF). Browsers always send Origin on
 * cross-site POSTs; requests without one (server-to-server webhooks, curl) carry no ambient cookies
 * worth stealing, and webhooks authenticate by signature instead.
 */
function sameOriginWrites(deps: AppDeps) {
  return async (c: import('hono').Context<AppEnv>, next: () => Promise<void>) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
    const origin = c.req.header('origin');
    if (!origin) return next();
    const allowed = new Set([new URL(c.req.url).origin]);
    const host =
      (deps.env.TRUST_PROXY ? c.req.header('x-forwarded-host') : undefined) ?? c.req.header('host');
    if (host) {
      allowed.add(`http://${host}`);
      allowed.add(`https://${host}`);
    }
    if (deps.env.PUBLIC_URL) allowed.add(new URL(deps.env.PUBLIC_URL).origin);
    if (!allowed.has(origin)) return c.json({ error: { message: 'Cross-origin request refused' } }, 403);
    return next();
  };
}
