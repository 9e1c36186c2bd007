import { GateAddOnsInput, MarkAddOnGivenInput } from '../../../shared/add-on-schemas.ts';
import {
  GateHistoryInput,
  GateLookUpInput,
  GateScanInput,
  GateSyncInput,
  GateUndoInput,
  GateUploadInput,
} from '../../../shared/gate-schemas.ts';
import { DomainError } from '../../errors.ts';
import { gateAddOns, markAddOnGiven } from '../../services/add-ons/booking-add-ons.ts';
import { gateDashboard } from '../../services/gate/gate-dashboard.ts';
import { findGateSlot, listGateEvents } from '../../services/gate/gate-events.ts';
import { listTicketAdmissions } from '../../services/gate/list-ticket-admissions.ts';
import { lookUpTickets } from '../../services/gate/look-up-tickets.ts';
import { mergeOfflineScans } from '../../services/gate/merge-offline-scans.ts';
import { recordScan } from '../../services/gate/record-scan.ts';
import { syncSlot } from '../../services/gate/sync-slot.ts';
import { undoAdmission } from '../../services/gate/undo-admission.ts';
import { getAccountRole } from '../../services/roles/get-account-role.ts';
import { eventProcedure, protectedProcedure, router } from '../init.ts';

const gateProcedure = eventProcedure('checkIn');

/** Refuses a slot id that is not one of this event's slots (it answers like an unknown one). */
async function requireSlot(
  ctx: { db: Parameters<typeof findGateSlot>[0]; event: { id: string } },
  slotId: string,
) {
  if (!(await findGateSlot(ctx.db, ctx.event.id, slotId)))
    throw new DomainError('NOT_FOUND', 'No such slot at this event');
}

/** The gate (/gate): per-event rights (owner, co-organiser, gate staff; admins any event). */
export const gateRouter = router({
  /** The events whose gate the caller may run, with their slots (empty: the page says so). */
  events: protectedProcedure.query(async ({ ctx }) =>
    listGateEvents(ctx.db, ctx.user.id, await getAccountRole(ctx.db, ctx.user.id)),
  ),

  /** Ticket list (whole or delta), others' admissions since the cursor, counters and double entries. */
  sync: gateProcedure
    .input(GateSyncInput)
    .query(({ ctx, input }) => syncSlot(ctx.db, ctx.deps.appSecret, ctx.event.id, input)),

  /** One scan while online: the server decides, logs and counts. */
  scan: gateProcedure.input(GateScanInput).mutation(async ({ ctx, input }) => {
    await requireSlot(ctx, input.slotId);
    return recordScan(
      ctx.db,
      ctx.deps.appSecret,
      { eventId: ctx.event.id, staffUserId: ctx.user.id },
      input,
      ctx.deps.clock.now(),
    );
  }),

  /** Scans made offline, merged into the log; collisions become double entries. */
  upload: gateProcedure.input(GateUploadInput).mutation(async ({ ctx, input }) => {
    await requireSlot(ctx, input.slotId);
    return mergeOfflineScans(
      ctx.db,
      ctx.deps.appSecret,
      { eventId: ctx.event.id, staffUserId: ctx.user.id },
      input,
      ctx.deps.clock.now(),
    );
  }),

  /** Takes an admission back, with a reason (logged). */
  undo: gateProcedure
    .input(GateUndoInput)
    .mutation(({ ctx, input }) =>
      undoAdmission(ctx.db, { eventId: ctx.event.id, staffUserId: ctx.user.id }, input, ctx.deps.clock.now()),
    ),

  /** A scanned booking's add-ons to hand over (ADR 0041). */
  addOns: gateProcedure
    .input(GateAddOnsInput)
    .query(({ ctx, input }) => gateAddOns(ctx.db, ctx.event.id, input.bookingId)),

  /** "Given": one add-on handed over, once, with who and when (online only). */
  markAddOnGiven: gateProcedure
    .input(MarkAddOnGivenInput)
    .mutation(({ ctx, input }) =>
      markAddOnGiven(
        ctx.db,
        { ...input, eventId: ctx.event.id, staffUserId: ctx.user.id },
        ctx.deps.clock.now(),
      ),
    ),

  /** Manual look-up by booking id, name or mobile. */
  lookUp: gateProcedure.input(GateLookUpInput).query(async ({ ctx, input }) => {
    await requireSlot(ctx, input.slotId);
    return lookUpTickets(ctx.db, input.slotId, input.query);
  }),

  /** One ticket's admissions (and their undos), for undoing a chosen one from the look-up. */
  history: gateProcedure
    .input(GateHistoryInput)
    .query(({ ctx, input }) => listTicketAdmissions(ctx.db, ctx.event.id, input.bookingId)),

  /** The organiser's gate panel: counters per slot and gate, and every double entry. */
  dashboard: eventProcedure('view').query(({ ctx }) => gateDashboard(ctx.db, ctx.event.id)),
});
