import { count } from 'drizzle-orm';
import { CreateEventInput, SlotFields, TicketTypeFields } from '../../../shared/event-editor-schemas.ts';
import type { Clock } from '../../deps.ts';
import { addEventDate } from '../../services/event-editor/add-event-date.ts';
import { addSlot } from '../../services/event-editor/add-slot.ts';
import { addTicketType } from '../../services/event-editor/add-ticket-type.ts';
import { createEvent } from '../../services/event-editor/create-event.ts';
import { publishEvent } from '../../services/event-editor/publish-event.ts';
import { setEventTax } from '../../services/invoices/set-event-tax.ts';
import { ensureDemoOrganiser } from '../../services/roles/ensure-demo-accounts.ts';
import type { Db } from '../client.ts';
import { runStatements } from '../engine/reads.ts';
import { row } from '../engine/steps.ts';
import { tablesOf } from '../engine/tables.ts';
import { type DemoEventPlan, demoEvents } from './demo-events.ts';
import { sellOutDemoTicketTypes } from './demo-sales.ts';

/**
 * Fills an empty catalogue with the demo events, dated relative to `clock` so they are always upcoming.
 * Each is made the way an organiser makes one in the console (docs/decisions/0017-event-editor.md):
 * the demo organiser creates it through the event editor's services, from input that passes the
 * console's own schemas, and publishes it, so there is one way to make an event. Does nothing when any
 * event exists, so starting twice never duplicates them. Returns how many it added.
 */
export async function seedDemoData(db: Db, clock: Clock): Promise<number> {
  const existing = await runStatements(db, (db) => {
    const { events } = tablesOf(db);
    return row(db.select({ n: count() }).from(events));
  });
  if (Number(existing?.n ?? 0) > 0) return 0;
  const now = clock.now();
  const plans = demoEvents(now);
  const ownerId = await ensureDemoOrganiser(db, now);
  const soldOut: string[] = [];
  for (const plan of plans) soldOut.push(...(await createDemoEvent(db, clock, ownerId, plan)));
  await sellOutDemoTicketTypes(db, soldOut, now);
  return plans.length;
}

/** Creates and publishes one demo event; returns the ids of its ticket types to sell out. */
async function createDemoEvent(db: Db, clock: Clock, ownerId: string, plan: DemoEventPlan) {
  const details = CreateEventInput.parse(plan.details);
  const created = await createEvent(db, clock, ownerId, details, { id: plan.id });
  const { eventId } = created;
  // The GST section: the venue's state, required in Delhi/NCR and Chandigarh before publishing.
  if (plan.venueState) await setEventTax(db, eventId, { taxRate: null, venueState: plan.venueState });
  let version = created.version;
  const soldOut: string[] = [];
  for (const date of plan.dates) {
    const added = await addEventDate(db, clock, eventId, version, date.day);
    version = added.version;
    for (const slot of date.slots) {
      const times = SlotFields.parse({ startTime: slot.startTime, endTime: slot.endTime });
      const s = await addSlot(db, clock, eventId, version, { dateId: added.dateId, ...times });
      version = s.version;
      for (const type of slot.ticketTypes) {
        const t = await addTicketType(db, eventId, version, s.slotId, TicketTypeFields.parse(type.ticket));
        version = t.version;
        if (type.soldOut) soldOut.push(t.ticketTypeId);
      }
    }
  }
  const published = await publishEvent(db, clock, eventId, version, 'owner');
  if (!published.published) {
    throw new Error(`Demo event ${eventId} cannot be published: ${published.missing.join(' ')}`);
  }
  return soldOut;
}
