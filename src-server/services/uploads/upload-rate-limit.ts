import type { RateLimit } from '../rate-limits/rate-limits.ts';

/**
 * Uploads per account: each one costs a second or so of encoding and a few hundred KB of disk, so a
 * busy editing session (a poster tried a few times, twenty artist photos) fits, a script does not.
 */
export const UPLOAD_RATE_LIMIT: RateLimit = { name: 'image-upload', max: 60, windowMs: 60 * 60 * 1000 };
