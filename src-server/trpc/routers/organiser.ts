import {
  AddEventDateInput,
  AddSlotInput,
  AddTicketTypeInput,
  CancellationPreviewInput,
  CancelSlotInput,
  CopyTicketTypesInput,
  CreateEventInput,
  RemoveEventDateInput,
  RemoveSlotInput,
  RemoveTicketTypeInput,
  UpdateEventDetailsInput,
  UpdateSlotTimeInput,
  UpdateTicketTypeInput,
  VersionedEventInput,
} from '../../../shared/event-editor-schemas.ts';
import { WaitingRoomSettingsInput } from '../../../shared/waiting-room.ts';
import { startCancellationWork } from '../../services/bookings/cancellation-job.ts';
import { readEvent } from '../../services/catalog/events.ts';
import { addEventDate } from '../../services/event-editor/add-event-date.ts';
import { addSlot } from '../../services/event-editor/add-slot.ts';
import { addTicketType } from '../../services/event-editor/add-ticket-type.ts';
import { cancelEvent } from '../../services/event-editor/cancel-event.ts';
import { cancelSlot } from '../../services/event-editor/cancel-slot.ts';
import { cancellationPreview } from '../../services/event-editor/cancellation-preview.ts';
import { copyTicketTypesToAllSlots } from '../../services/event-editor/copy-ticket-types-to-all-slots.ts';
import { createEvent } from '../../services/event-editor/create-event.ts';
import { getEditableEvent } from '../../services/event-editor/get-editable-event.ts';
import { publishEvent } from '../../services/event-editor/publish-event.ts';
import { removeEventDate } from '../../services/event-editor/remove-event-date.ts';
import { removeSlot } from '../../services/event-editor/remove-slot.ts';
import { removeTicketType } from '../../services/event-editor/remove-ticket-type.ts';
import { rescheduleSlot } from '../../services/event-editor/reschedule-slot.ts';
import { unpublishEvent } from '../../services/event-editor/unpublish-event.ts';
import { updateEventDetails } from '../../services/event-editor/update-event-details.ts';
import { updateTicketType } from '../../services/event-editor/update-ticket-type.ts';
import {
  getWaitingRoomSettings,
  updateWaitingRoomSettings,
} from '../../services/waiting-room/waiting-room-settings.ts';
import { eventProcedure, organiserProcedure, router } from '../init.ts';

/**
 * The event editor. Every edit carries the version it was based on and answers the new one; another
 * organiser's ids answer NOT_FOUND (eventProcedure), gate staff are not allowed.
 */
export const organiserRouter = router({
  /** A new draft owned by the caller. */
  createEvent: organiserProcedure
    .input(CreateEventInput)
    .mutation(({ ctx, input }) => createEvent(ctx.db, ctx.deps.clock, ctx.user.id, input)),

  /** The editor's view of one event, drafts included, with sold and held counts. */
  editableEvent: eventProcedure('edit').query(({ ctx }) =>
    getEditableEvent(ctx.db, ctx.event.id, ctx.deps.clock.now()),
  ),

  /** The buyer's event page as it will look, for the team, whatever the status. */
  preview: eventProcedure('view').query(({ ctx }) => readEvent(ctx.db, ctx.event.id, { preview: true })),

  updateDetails: eventProcedure('edit')
    .input(UpdateEventDetailsInput)
    .mutation(({ ctx, input: { eventId: _id, version, ...details } }) =>
      updateEventDetails(ctx.db, ctx.event.id, version, details),
    ),

  addDate: eventProcedure('edit')
    .input(AddEventDateInput)
    .mutation(({ ctx, input }) =>
      addEventDate(ctx.db, ctx.deps.clock, ctx.event.id, input.version, input.day),
    ),

  removeDate: eventProcedure('edit')
    .input(RemoveEventDateInput)
    .mutation(({ ctx, input }) => removeEventDate(ctx.db, ctx.event.id, input.version, input.dateId)),

  addSlot: eventProcedure('edit')
    .input(AddSlotInput)
    .mutation(({ ctx, input }) => addSlot(ctx.db, ctx.deps.clock, ctx.event.id, input.version, input)),

  removeSlot: eventProcedure('edit')
    .input(RemoveSlotInput)
    .mutation(({ ctx, input }) => removeSlot(ctx.db, ctx.event.id, input.version, input.slotId)),

  /**
   * "Change date or time": moves a slot to new times, on its date or another; its tickets stay valid and
   * every holder is mailed. Owner, admin and co-organiser ('edit'): a co-organiser may already cancel a
   * slot and refund everyone, and a move is the milder step; gate staff never.
   */
  updateSlotTime: eventProcedure('edit')
    .input(UpdateSlotTimeInput)
    .mutation(({ ctx, input }) => rescheduleSlot(ctx.deps, ctx.event.id, input.version, input, ctx.user.id)),

  /** How many bookings cancelling a slot (or, without slotId, the event) would refund: the dialog's text. */
  cancellationPreview: eventProcedure('edit')
    .input(CancellationPreviewInput)
    .query(({ ctx, input }) => cancellationPreview(ctx.db, ctx.event.id, input.slotId)),

  /**
   * Cancels a slot; its bookings are cancelled and refunded in the background, batch by batch. A slot
   * with bookings is the owner's and admins' to cancel (the service checks, in its transaction).
   */
  cancelSlot: eventProcedure('edit')
    .input(CancelSlotInput)
    .mutation(async ({ ctx, input }) => {
      const result = await cancelSlot(
        ctx.db,
        ctx.deps.clock,
        ctx.event.id,
        input.version,
        input.slotId,
        ctx.eventRole,
      );
      startCancellationWork(ctx.deps);
      return result;
    }),

  /** Cancels the whole event (owner and admin only); every booking is cancelled and refunded. */
  cancelEvent: eventProcedure('cancelEvent')
    .input(VersionedEventInput)
    .mutation(async ({ ctx, input }) => {
      const result = await cancelEvent(ctx.db, ctx.deps.clock, ctx.event.id, input.version);
      startCancellationWork(ctx.deps);
      return result;
    }),

  addTicketType: eventProcedure('edit')
    .input(AddTicketTypeInput)
    .mutation(({ ctx, input }) =>
      addTicketType(ctx.db, ctx.event.id, input.version, input.slotId, input.ticket),
    ),

  updateTicketType: eventProcedure('edit')
    .input(UpdateTicketTypeInput)
    .mutation(({ ctx, input }) =>
      updateTicketType(ctx.db, ctx.event.id, input.version, input.ticketTypeId, input.ticket, {
        deps: ctx.deps,
        now: ctx.deps.clock.now(),
      }),
    ),

  removeTicketType: eventProcedure('edit')
    .input(RemoveTicketTypeInput)
    .mutation(({ ctx, input }) => removeTicketType(ctx.db, ctx.event.id, input.version, input.ticketTypeId)),

  copyTicketTypesToAllSlots: eventProcedure('edit')
    .input(CopyTicketTypesInput)
    .mutation(({ ctx, input }) =>
      copyTicketTypesToAllSlots(ctx.db, ctx.event.id, input.version, input.fromSlotId, ctx.deps.clock.now()),
    ),

  /** Publishes, or answers `{ published: false, missing }` listing what the event still needs. */
  /** The event's waiting room (issue 19): on or off, on-sale time, admit rate; and the queue so far. */
  waitingRoom: eventProcedure('edit').query(({ ctx }) => getWaitingRoomSettings(ctx.db, ctx.event.id)),

  updateWaitingRoom: eventProcedure('edit')
    .input(WaitingRoomSettingsInput)
    .mutation(({ ctx, input: { eventId: _id, ...settings } }) =>
      updateWaitingRoomSettings(ctx.db, ctx.event.id, settings, ctx.deps.clock.now()),
    ),

  publish: eventProcedure('edit')
    .input(VersionedEventInput)
    .mutation(({ ctx, input }) =>
      publishEvent(ctx.db, ctx.deps.clock, ctx.event.id, input.version, ctx.eventRole),
    ),

  unpublish: eventProcedure('edit')
    .input(VersionedEventInput)
    .mutation(({ ctx, input }) => unpublishEvent(ctx.db, ctx.event.id, input.version)),
});
