import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/** One ticket type copied to another slot ("Copy to all slots"). */
export interface CopiedType {
  fromTypeId: string;
  toTypeId: string;
  toSlotId: string;
}

/**
 * The copied types' shared capacities, inside the copy's transaction (ADR 0039), as steps on either
 * engine (ADR 0045). A copied type joins a quota of its original only when the organiser made that quota
 * cover the target slot too (a multi-slot quota); otherwise the target slot gets a quota of its own with
 * the same name and capacity, all seats free — the evening show is a second full house, never a share of
 * the matinee's. Types copied from one quota into one slot share that slot's quota, and a slot that
 * already has a one-slot quota of that name (an earlier copy) adds the new types to it.
 */
export function* copyQuotasWithTypesSteps(
  tx: DbOrTx,
  eventId: string,
  copies: CopiedType[],
  now: Date,
): Steps<void> {
  if (copies.length === 0) return;
  const { quotaTicketTypes } = tablesOf(tx);
  const memberships = yield* rows(
    tx
      .select({ quotaId: quotaTicketTypes.quotaId, ticketTypeId: quotaTicketTypes.ticketTypeId })
      .from(quotaTicketTypes)
      .where(
        inArray(
          quotaTicketTypes.ticketTypeId,
          copies.map((c) => c.fromTypeId),
        ),
      ),
  );
  if (memberships.length === 0) return;
  const targetOf = new Map<string, string>();
  for (const copy of copies) {
    for (const { quotaId } of memberships.filter((m) => m.ticketTypeId === copy.fromTypeId)) {
      const quotaSlots = yield* slotsOfQuota(tx, quotaId);
      let target = quotaSlots.has(copy.toSlotId) ? quotaId : targetOf.get(`${quotaId} ${copy.toSlotId}`);
      target ??= yield* ownQuotaOfSlot(tx, eventId, quotaId, copy.toSlotId, now);
      targetOf.set(`${quotaId} ${copy.toSlotId}`, target);
      yield* changes(tx.insert(quotaTicketTypes).values({ quotaId: target, ticketTypeId: copy.toTypeId }));
    }
  }
}

function* slotsOfQuota(tx: DbOrTx, quotaId: string): Steps<Set<string>> {
  const { quotaTicketTypes, ticketTypes } = tablesOf(tx);
  const found = yield* rows(
    tx
      .select({ slotId: ticketTypes.slotId })
      .from(quotaTicketTypes)
      .innerJoin(ticketTypes, eq(ticketTypes.id, quotaTicketTypes.ticketTypeId))
      .where(eq(quotaTicketTypes.quotaId, quotaId)),
  );
  return new Set(found.map((r) => r.slotId));
}

/** The slot's one-slot quota named like the original, or a new one with all its seats free. */
function* ownQuotaOfSlot(
  tx: DbOrTx,
  eventId: string,
  fromQuotaId: string,
  slotId: string,
  now: Date,
): Steps<string> {
  const { quotas } = tablesOf(tx);
  const original = (yield* row(
    tx
      .select({ name: quotas.name, capacity: quotas.capacity })
      .from(quotas)
      .where(eq(quotas.id, fromQuotaId)),
  ))!;
  const sameName = yield* rows(
    tx
      .select({ id: quotas.id })
      .from(quotas)
      .where(and(eq(quotas.eventId, eventId), eq(quotas.name, original.name))),
  );
  for (const { id } of sameName) {
    const quotaSlots = yield* slotsOfQuota(tx, id);
    if (quotaSlots.size === 1 && quotaSlots.has(slotId)) return id;
  }
  const id = `qt-${randomUUID()}`;
  yield* changes(
    tx.insert(quotas).values({
      id,
      eventId,
      name: original.name,
      capacity: original.capacity,
      available: original.capacity,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    }),
  );
  return id;
}
