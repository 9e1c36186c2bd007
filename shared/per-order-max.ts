import { MAX_TICKETS_PER_TYPE } from './pricing.ts';

/**
 * The most tickets of one type a single order may take: the organiser's per-order maximum, never above
 * the platform's (spec §9: 10). Proceed, the reservation, the waiting list and the ticket selection all
 * ask this one rule, and refuse with this one message. `null` where the type is not read yet (a
 * reservation's lines): the most any type's maximum can be, the platform's.
 */
export function perOrderMaxOf(type: { maxPerOrder: number } | null): number {
  if (!type) return MAX_TICKETS_PER_TYPE;
  return Math.max(1, Math.min(MAX_TICKETS_PER_TYPE, type.maxPerOrder));
}

/** The refusal when an order asks for more of a type than `max`; 'one type' where the type is not known. */
export function perOrderMaxMessage(max: number, typeName = 'one type'): string {
  return `You can book at most ${max === 1 ? '1 ticket' : `${max} tickets`} of ${typeName}`;
}

/**
 * The refusal for `quantity` tickets of `type` in one order, or null when the order may take them;
 * `type` null: of a type not read yet, against the platform's maximum ('of one type').
 */
export function perOrderMaxProblem(
  type: { name: string; maxPerOrder: number } | null,
  quantity: number,
): string | null {
  const max = perOrderMaxOf(type);
  return quantity > max ? perOrderMaxMessage(max, type?.name) : null;
}
