import { z } from 'zod';
import { formatCount } from './money.ts';
import { EventIdInput } from './organiser-schemas.ts';

/**
 * Shared capacity (quotas, issue 40, ADR 0039): a number of seats several ticket types of a slot (or,
 * when the organiser chooses, of several slots) sell from together. The console's form and the
 * procedures' inputs use these schemas; the messages are defined here once.
 */

export const MAX_QUOTA_CAPACITY = 1_000_000;

export const QUOTA_MESSAGES = {
  nameRequired: 'Enter a name',
  nameLong: 'A name has at most 80 characters',
  capacityPositive: `A capacity is a whole number from 1 to ${formatCount(MAX_QUOTA_CAPACITY)}`,
  slotsRequired: 'Choose at least one slot',
  typesRequired: 'Choose at least one ticket type',
  slotUnknown: 'A chosen slot is not one of this event’s',
  typeNotInSlots: 'A chosen ticket type is not in the chosen slots',
  slotWithoutType: 'Each chosen slot needs at least one chosen ticket type',
  belowTaken: (taken: number) =>
    `The capacity cannot be less than the ${taken} ticket${taken === 1 ? '' : 's'} already sold or held`,
  quotaNotFound: 'Shared capacity not found',
} as const;

const idField = z.string().min(1).max(200);

/** What the organiser sets: a name, the capacity, and which slots' ticket types count towards it. */
export const QuotaFields = z.object({
  name: z.string().trim().min(1, QUOTA_MESSAGES.nameRequired).max(80, QUOTA_MESSAGES.nameLong),
  capacity: z
    .number(QUOTA_MESSAGES.capacityPositive)
    .int(QUOTA_MESSAGES.capacityPositive)
    .min(1, QUOTA_MESSAGES.capacityPositive)
    .max(MAX_QUOTA_CAPACITY, QUOTA_MESSAGES.capacityPositive),
  /** One slot, or several for a capacity the slots share (a festival pass's ground, for instance). */
  slotIds: z.array(idField).min(1, QUOTA_MESSAGES.slotsRequired).max(50),
  ticketTypeIds: z.array(idField).min(1, QUOTA_MESSAGES.typesRequired).max(200),
});
export type QuotaFields = z.output<typeof QuotaFields>;

export const CreateQuotaInput = z.object({ ...EventIdInput.shape, quota: QuotaFields });
export const UpdateQuotaInput = z.object({ ...EventIdInput.shape, quotaId: idField, quota: QuotaFields });
export const RemoveQuotaInput = z.object({ ...EventIdInput.shape, quotaId: idField });
