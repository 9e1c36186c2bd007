import type { Context, Hono } from 'hono';
import { IMAGE_KINDS, IMAGE_MESSAGES, UPLOAD_FILE_PATTERN } from '../../shared/event-images.ts';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../errors.ts';
import { takeRateLimited } from '../services/rate-limits/rate-limits.ts';
import { requireEventPermission } from '../services/team/require-event-permission.ts';
import { ImageStorageUnavailable } from '../services/uploads/image-storage.ts';
import { uploadEventImage } from '../services/uploads/upload-event-image.ts';
import { UPLOAD_RATE_LIMIT } from '../services/uploads/upload-rate-limit.ts';
import { requestLogger } from './request-context.ts';
import { sessionUserOf } from './session-of.ts';

/** The upload route's path; app.ts gives it a larger body limit than the rest of /api. */
export const IMAGE_UPLOAD_PATH = /^\/api\/organiser\/events\/[^/]+\/images$/;

/**
 * POST /api/organiser/events/{eventId}/images?kind=poster|banner|artist with the picture as the raw
 * body: the event editor's uploads. tRPC carries JSON, not files, so this is a plain route that makes
 * the checks an `eventProcedure('edit')` makes (session, the caller's role on the event) plus the
 * CSRF check, strictly: app.ts refuses a foreign Origin, and this route also refuses none at all
 * (browsers send Origin with every fetch POST). The body is read only after those checks, and never
 * beyond MAX_UPLOAD_BYTES (app.ts).
 *
 * GET /uploads/{file}: the stored sizes, public and immutable (the name changes with the content).
 *
 * A store that fails or does not answer in time (an S3 bucket, ImageStorageUnavailable) makes either
 * route answer 503 with a message the editor shows, at once; the log says which store and why.
 */
export function mountEventImages(app: Hono<AppEnv>, deps: AppDeps) {
  app.post('/api/organiser/events/:eventId/images', async (c) => {
    if (!c.req.header('origin')) throw forbidden('Cross-origin request refused');
    const user = await sessionUserOf(c, deps);
    if (!user) throw unauthorized();
    const userId = user.id;
    await requireEventPermission(deps.db, c.req.param('eventId'), userId, 'edit');
    const kind = IMAGE_KINDS.find((k) => k === c.req.query('kind'));
    if (!kind) throw badRequest(IMAGE_MESSAGES.kindInvalid);
    const allowed = await takeRateLimited(
      deps.db,
      [{ limit: UPLOAD_RATE_LIMIT, key: userId }],
      deps.clock.now(),
    );
    if (!allowed) throw tooManyRequests(IMAGE_MESSAGES.tooMany);

    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const uploaded = await uploadEventImage(deps.images, kind, bytes).catch(storageDown(c));
    if (uploaded instanceof Response) return uploaded;
    c.header('Cache-Control', 'no-store');
    return c.json(uploaded, 201);
  });

  app.get('/uploads/:file', async (c) => {
    const file = c.req.param('file');
    const bytes = UPLOAD_FILE_PATTERN.test(file) ? await deps.images.get(file).catch(storageDown(c)) : null;
    if (bytes instanceof Response) return bytes;
    if (!bytes) {
      c.header('Cache-Control', 'no-store');
      return c.json({ error: { message: 'Not found' } }, 404);
    }
    c.header('Content-Type', 'image/webp');
    c.header('Content-Length', String(bytes.byteLength));
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    return c.body(bytes);
  });
}

/** ImageStorageUnavailable as a 503 answer (logged); any other error goes on to app.onError. */
function storageDown(c: Context<AppEnv>) {
  return (err: unknown): Response => {
    if (!(err instanceof ImageStorageUnavailable)) throw err;
    requestLogger(c).error({ err }, 'image storage unavailable');
    c.header('Cache-Control', 'no-store');
    c.header('Retry-After', '60');
    return c.json({ error: { message: IMAGE_MESSAGES.storageUnavailable } }, 503);
  };
}
