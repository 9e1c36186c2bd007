import { z } from 'zod';
import { VersionedEventInput } from './event-editor-schemas.ts';
import { MAX_CONVENIENCE_FEE_RATE } from './pricing.ts';

/** Rows per page of the admin page's lists (organisers, all events). */
export const ADMIN_PAGE_SIZE = 20;

/** One page of an admin list, counted from 1. */
export const AdminPageInput = z.object({ page: z.number().int().min(1).max(100_000).default(1) });
export type AdminPageInput = z.input<typeof AdminPageInput>;

/**
 * An admin takes any organiser's published event off sale, based on the version the list showed, and
 * holds it there until an admin releases it (issue 35); the reason, when given, is kept and mailed to
 * the owner.
 */
export const AdminUnpublishInput = VersionedEventInput.extend({
  reason: z.string().trim().max(500, 'Keep the reason under 500 characters').optional(),
});
export type AdminUnpublishInput = z.input<typeof AdminUnpublishInput>;

export interface AdminPage<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** An admin caps every event's convenience fee, in percent. */
export const ConvenienceFeeCapInput = z.object({
  percent: z
    .number({ message: `Enter a percentage from 0 to ${MAX_CONVENIENCE_FEE_RATE}` })
    .min(0, `Enter a percentage from 0 to ${MAX_CONVENIENCE_FEE_RATE}`)
    .max(MAX_CONVENIENCE_FEE_RATE, `Enter a percentage from 0 to ${MAX_CONVENIENCE_FEE_RATE}`),
});
export type ConvenienceFeeCapInput = z.input<typeof ConvenienceFeeCapInput>;
