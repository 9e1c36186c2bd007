import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { type Path, type UseFormReturn, useForm } from 'react-hook-form';
import { z } from 'zod';
import { type CopyPlan, planTicketTypeCopy } from '../../../shared/copy-ticket-types.ts';
import {
  formatInIndia,
  formatLongDate,
  formatSaleWindow,
  formatTime,
  indiaCalendarDay,
} from '../../../shared/dates.ts';
import { SlotFields, SlotMoveFields, slotEndsNextDay } from '../../../shared/event-editor-schemas.ts';
import { invoicingNotice } from '../../../shared/gst-schemas.ts';
import { formatPaise } from '../../../shared/money.ts';
import { SubmitButton, TextField } from '../../components/auth-fields.tsx';
import { AddOnsSection } from '../../components/console/add-ons-section.tsx';
import { AttendeeQuestionsSection } from '../../components/console/attendee-questions-section.tsx';
import { CancelEventSection, CancelSlotButton } from '../../components/console/cancel-dialogs.tsx';
import { ConfirmDialog } from '../../components/console/confirm-dialog.tsx';
import {
  EditError,
  EditorReloadContext,
  type Run,
  useEditAction,
} from '../../components/console/edit-error.tsx';
import { EventDetailsForm } from '../../components/console/event-details-form.tsx';
import { EventGstSection } from '../../components/console/event-gst-section.tsx';
import { ConsoleEventHeader } from '../../components/console/event-page.tsx';
import { QuotasSection } from '../../components/console/quotas-section.tsx';
import { NEW_TICKET, TicketTypeForm } from '../../components/console/ticket-type-form.tsx';
import { UnsavedChangesGuard } from '../../components/console/unsaved-changes-guard.tsx';
import { WaitingRoomSection } from '../../components/console/waiting-room-section.tsx';
import { NotAllowedScreen } from '../../components/not-allowed.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { showServerErrors } from '../../lib/server-field-errors.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/_event/organiser/events/$eventId/edit')({
  component: EditorPage,
});

type Editable = RouterOutputs['organiser']['editableEvent'];
type Slot = Editable['dates'][number]['slots'][number];
type TicketType = Slot['tickets'][number];

const STATUS_LABELS: Record<Editable['status'], string> = {
  draft: 'Draft',
  published: 'Published',
  cancelled: 'Cancelled',
};

/** The day field of AddEventDateInput, for the "Add date" form. */
const DayForm = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a date as YYYY-MM-DD'),
});

function EditorPage() {
  const { eventId } = Route.useParams();
  const event = trpc.organiser.editableEvent.useQuery({ eventId });
  // Bumped by "Reload" after a version conflict: the forms start again from what is saved now.
  const [generation, setGeneration] = useState(0);
  if (event.isPending) return <LoadingText />;
  if (event.error?.data?.httpStatus === 403) return <NotAllowedScreen />;
  if (!event.data) return <NoticeText text={messageOf(event.error, 'Event not found')} />;
  const reload = async () => {
    await event.refetch();
    setGeneration((g) => g + 1);
  };
  // Someone else saved first: any edit's error line offers this (EditError).
  return (
    <EditorReloadContext.Provider value={() => void reload()}>
      <Editor key={generation} event={event.data} />
    </EditorReloadContext.Provider>
  );
}

/**
 * Every edit sends the version it was based on; the page reloads the event after each one. Its error goes
 * back to the caller, which shows it next to itself (EditError: a form beside its button, a button
 * beside its row), never in a banner at the top of the page.
 */
function useEdit(): Run {
  const utils = trpc.useUtils();
  return async (work) => {
    try {
      await work();
    } finally {
      await utils.organiser.editableEvent.invalidate();
    }
  };
}

function Editor({ event }: { event: Editable }) {
  const eventId = event.id;
  const base = { eventId, version: event.version };
  const updateDetails = trpc.organiser.updateDetails.useMutation();
  // Cancelling the whole event is for the owner and admins (the server decides; this only hides the button).
  const access = trpc.console.event.useQuery({ eventId });
  const mayCancelEvent = access.data?.myRole === 'owner' || access.data?.myRole === 'admin';
  const run = useEdit();
  const allSlots = event.dates.flatMap((d) => d.slots);
  const details = {
    name: event.name,
    category: event.category,
    city: event.city,
    eventLocationText: event.eventLocationText,
    googleMapsEmbedLink: event.googleMapsEmbedLink,
    description: event.description,
    ageRestrictions: event.ageRestrictions,
    language: event.language,
    termsAndConditions: event.termsAndConditions,
    artists: event.artists,
    platformFeeRate: event.platformFeeRate,
    posterUrl: event.posterUrl,
    bannerUrl: event.bannerUrl,
    maxTicketsPerBuyer: event.maxTicketsPerBuyer,
    refundCutoffHours: event.refundCutoffHours,
    refundRule: event.refundRule,
    refundPercent: event.refundPercent,
    transfersAllowed: event.transfersAllowed,
    waitlistOfferMinutes: event.waitlistOfferMinutes,
    maxTransfersPerBooking: event.maxTransfersPerBooking,
  };

  return (
    <section className="mx-auto w-full max-w-4xl space-y-10 px-4 py-8">
      <ConsoleEventHeader eventId={eventId} current="edit" title={event.name}>
        <p className="mt-1 text-gray-700">
          Status: <strong>{STATUS_LABELS[event.status]}</strong> ·{' '}
          <Link
            to="/organiser/events/$eventId/preview"
            params={{ eventId }}
            className="font-semibold text-brand-700 underline"
          >
            Preview the event page
          </Link>
        </p>
      </ConsoleEventHeader>

      <section aria-labelledby="details-heading">
        <h2 id="details-heading" className="text-xl font-bold">
          Details
        </h2>
        <div className="mt-3">
          <EventDetailsForm
            initial={details}
            eventId={eventId}
            submitLabel="Save details"
            onSave={(values) => run(() => updateDetails.mutateAsync({ ...base, ...values }))}
          />
        </div>
      </section>

      <section aria-labelledby="dates-heading">
        <h2 id="dates-heading" className="text-xl font-bold">
          Dates, slots and tickets
        </h2>
        <ul className="mt-3 space-y-6">
          {event.dates.map((date) => (
            <DateBlock key={date.id} base={base} date={date} allSlots={allSlots} run={run} />
          ))}
        </ul>
        <AddDate base={base} run={run} />
      </section>

      <QuotasSection eventId={eventId} version={event.version} slots={allSlots} />

      <AddOnsSection eventId={eventId} slots={allSlots} />

      <EventGstSection key={event.city} gst={{ ...event, eventId }} />

      <WaitingRoomSection eventId={eventId} />

      <AttendeeQuestionsSection
        eventId={eventId}
        types={allSlots.flatMap((slot) =>
          slot.tickets.map((type) => ({ id: type.id, name: type.name, slotStart: slot.startTime })),
        )}
      />

      <PublishSection event={event} run={run} />
      {event.status !== 'cancelled' && mayCancelEvent && <CancelEventSection base={base} run={run} />}
    </section>
  );
}

type Base = { eventId: string; version: number };

function DateBlock({
  base,
  date,
  allSlots,
  run,
}: {
  base: Base;
  date: Editable['dates'][number];
  allSlots: Slot[];
  run: Run;
}) {
  const removeDate = trpc.organiser.removeDate.useMutation();
  const remove = useEditAction(run);
  const label = formatLongDate(date.dateOfEvent);
  return (
    <li className="rounded-xl border border-gray-200 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-lg font-semibold">{label}</h3>
        <button
          type="button"
          disabled={removeDate.isPending}
          onClick={() => remove.act(() => removeDate.mutateAsync({ ...base, dateId: date.id }))}
          className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold disabled:opacity-60"
          aria-label={`Remove date ${label}`}
        >
          Remove date
        </button>
      </div>
      <EditError message={remove.error} />
      <ul className="mt-3 space-y-4">
        {date.slots.map((slot) => (
          <SlotBlock
            key={slot.id}
            base={base}
            slot={slot}
            day={indiaCalendarDay(date.dateOfEvent)}
            allSlots={allSlots}
            run={run}
          />
        ))}
      </ul>
      <AddSlot base={base} dateId={date.id} dateLabel={label} run={run} />
    </li>
  );
}

function SlotBlock({
  base,
  slot,
  day,
  allSlots,
  run,
}: {
  base: Base;
  slot: Slot;
  day: string;
  allSlots: Slot[];
  run: Run;
}) {
  const removeSlot = trpc.organiser.removeSlot.useMutation();
  const remove = useEditAction(run);
  const addType = trpc.organiser.addTicketType.useMutation();
  const label = `${formatTime(slot.startTime)} – ${formatTime(slot.endTime)}`;
  if (slot.cancelled) {
    return (
      <li className="rounded-lg bg-gray-50 p-3">
        <h4 className="font-semibold">
          Slot {label}{' '}
          <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-sm text-red-800">Cancelled</span>
        </h4>
      </li>
    );
  }
  return (
    <li className="rounded-lg bg-gray-50 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="font-semibold">Slot {label}</h4>
        <div className="flex flex-wrap gap-2">
          {slot.tickets.length > 0 && (
            <CopyTicketTypesButton base={base} slot={slot} allSlots={allSlots} run={run} />
          )}
          <button
            type="button"
            disabled={removeSlot.isPending}
            onClick={() => remove.act(() => removeSlot.mutateAsync({ ...base, slotId: slot.id }))}
            className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold disabled:opacity-60"
            aria-label={`Remove slot ${label}`}
          >
            Remove slot
          </button>
          <CancelSlotButton base={base} slotId={slot.id} label={label} run={run} />
        </div>
      </div>
      <EditError message={remove.error} />
      <MoveSlot base={base} slot={slot} day={day} label={label} run={run} />
      <ul className="mt-2 divide-y divide-gray-200">
        {slot.tickets.map((type) => (
          <TicketTypeRow key={type.id} base={base} type={type} run={run} />
        ))}
      </ul>
      <details className="mt-3">
        <summary className="cursor-pointer font-semibold text-brand-700">Add ticket type</summary>
        <div className="mt-3">
          <TicketTypeForm
            initial={NEW_TICKET}
            submitLabel="Add ticket type"
            onSave={(ticket) => run(() => addType.mutateAsync({ ...base, slotId: slot.id, ticket }))}
          />
        </div>
      </details>
    </li>
  );
}

function TicketTypeRow({ base, type, run }: { base: Base; type: TicketType; run: Run }) {
  const update = trpc.organiser.updateTicketType.useMutation();
  const removeType = trpc.organiser.removeTicketType.useMutation();
  const remove = useEditAction(run);
  const initial = {
    name: type.name,
    priceRupees: type.pricePaise / 100,
    totalTickets: type.totalTickets,
    maxPerOrder: type.maxPerOrder,
    personAllowedPerTicket: type.personAllowedPerTicket,
    description: type.description,
    benefits: type.benefits,
    isRefundable: type.isRefundable,
    onSale: type.isLive,
    isHidden: type.isHidden,
    perAttendeeTickets: type.perAttendeeTickets ?? false,
    saleOpensAt: type.saleOpensAt,
    saleClosesAt: type.saleClosesAt,
  };
  return (
    <li className="py-2">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span>
          <strong>{type.name}</strong> · {formatPaise(type.pricePaise)} · {type.sold} sold, {type.held} held
          of {type.totalTickets}
          {!type.isLive && ' · not on sale'}
          {type.isHidden && ' · hidden (access code only)'}
          {type.perAttendeeTickets && ' · one QR per attendee'} ·{' '}
          {formatSaleWindow(type.saleOpensAt, type.saleClosesAt)}
        </span>
        <button
          type="button"
          disabled={removeType.isPending}
          onClick={() => remove.act(() => removeType.mutateAsync({ ...base, ticketTypeId: type.id }))}
          className="rounded-md border border-gray-300 px-2 py-1 text-xs font-semibold disabled:opacity-60"
          aria-label={`Remove ${type.name}`}
        >
          Remove
        </button>
      </div>
      <EditError message={remove.error} />
      <details className="mt-1">
        <summary className="cursor-pointer text-sm text-brand-700">Edit {type.name}</summary>
        <div className="mt-2">
          <TicketTypeForm
            initial={initial}
            submitLabel="Save ticket type"
            onSave={(ticket) => run(() => update.mutateAsync({ ...base, ticketTypeId: type.id, ticket }))}
          />
        </div>
      </details>
    </li>
  );
}

function AddDate({ base, run }: { base: Base; run: Run }) {
  const add = trpc.organiser.addDate.useMutation();
  const form = useForm<z.infer<typeof DayForm>>({
    resolver: zodResolver(DayForm),
    defaultValues: { day: '' },
  });
  const [error, setError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async ({ day }) => {
    setError(null);
    try {
      await run(() => add.mutateAsync({ ...base, day }));
      form.reset({ day: '' });
    } catch (e) {
      setError(messageOf(e));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 flex max-w-md flex-col gap-2">
      <UnsavedChangesGuard form={form} />
      <TextField
        label="New date"
        type="date"
        error={form.formState.errors.day?.message}
        {...form.register('day')}
      />
      <EditError message={error} />
      <SubmitButton busy={form.formState.isSubmitting} busyText="Adding...">
        Add date
      </SubmitButton>
    </form>
  );
}

function AddSlot({
  base,
  dateId,
  dateLabel,
  run,
}: {
  base: Base;
  dateId: string;
  dateLabel: string;
  run: Run;
}) {
  const add = trpc.organiser.addSlot.useMutation();
  const form = useForm<z.infer<typeof SlotFields>>({
    resolver: zodResolver(SlotFields),
    defaultValues: { startTime: '19:00', endTime: '21:00' },
  });
  const [error, setError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await run(() => add.mutateAsync({ ...base, dateId, ...values }));
      // Kept for the next date's slot, and clean: nothing is left unsaved.
      form.reset(values);
    } catch (e) {
      setError(slotErrorOn(form, e));
    }
  });
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={`Add slot on ${dateLabel}`}
      className="mt-3 grid max-w-md grid-cols-2 gap-2"
    >
      <UnsavedChangesGuard form={form} />
      <TextField
        label="Slot start (India time)"
        type="time"
        error={form.formState.errors.startTime?.message}
        {...form.register('startTime')}
      />
      <TextField
        label="Slot end (India time)"
        type="time"
        hint={slotEndsNextDay(form.watch()) ? 'Ends the next day' : undefined}
        error={form.formState.errors.endTime?.message}
        {...form.register('endTime')}
      />
      <div className="col-span-2">
        <EditError message={error} />
        <SubmitButton busy={form.formState.isSubmitting} busyText="Adding...">
          Add slot
        </SubmitButton>
      </div>
    </form>
  );
}

/**
 * A slot form's refusal: one about a field it has (the start already taken or past, a bad day) goes on
 * that field, the first focused so it is in view; anything else is the form's own line.
 */
function slotErrorOn<T extends { startTime: string; endTime: string }>(
  form: UseFormReturn<T>,
  error: unknown,
): string | null {
  return showServerErrors(form, error, Object.keys(form.getValues()) as Path<T>[]);
}

/**
 * "Copy ticket types to all slots", asked first (issue 35: one click gave a duplicate slot the full
 * house again): the dialog names how many slots, ticket types and seats the copy adds, as the server's
 * own plan of it (shared/copy-ticket-types.ts) counts them.
 */
function CopyTicketTypesButton({
  base,
  slot,
  allSlots,
  run,
}: {
  base: Base;
  slot: Slot;
  allSlots: Slot[];
  run: Run;
}) {
  const copy = trpc.organiser.copyTicketTypesToAllSlots.useMutation();
  // Planned when the dialog opens and kept: the event reloads after the copy, before the dialog closes.
  const [plan, setPlan] = useState<CopyPlan<TicketType> | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setError(null);
          setPlan(planTicketTypeCopy(allSlots, slot.id));
        }}
        className="rounded-md border border-brand-600 px-3 py-1.5 text-sm font-semibold text-brand-700"
      >
        Copy ticket types to all slots
      </button>
      {plan && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setPlan(null)}
          title="Copy these ticket types to all slots?"
          description={copyDescription(plan)}
          cancelLabel="Don't copy"
          confirmLabel={plan.ticketTypes === 0 ? 'Nothing to copy' : `Copy and add ${seats(plan.seats)}`}
          busyLabel="Copying..."
          busy={copy.isPending}
          confirmDisabled={plan.ticketTypes === 0}
          error={null}
          onConfirm={() => {
            setError(null);
            run(() => copy.mutateAsync({ ...base, fromSlotId: slot.id }))
              .then(() => setPlan(null))
              .catch((e: unknown) => setError(messageOf(e)));
          }}
        >
          <EditError message={error} />
        </ConfirmDialog>
      )}
    </>
  );
}

const seats = (n: number) => `${n.toLocaleString('en-IN')} ${n === 1 ? 'seat' : 'seats'}`;

/** What the copy will do, in the organiser's words: slots, ticket types and seats it adds. */
function copyDescription(plan: CopyPlan<TicketType>): string {
  if (plan.ticketTypes === 0)
    return 'Every other slot already has ticket types of these names (or is cancelled): nothing would be added.';
  const slots = plan.additions.length;
  return (
    `This adds ${plan.ticketTypes} ${plan.ticketTypes === 1 ? 'ticket type' : 'ticket types'} to ` +
    `${slots} other ${slots === 1 ? 'slot' : 'slots'}, putting ${seats(plan.seats)} more on sale. ` +
    "Each slot sells its own seats, so check that every slot is a separate show. Sale windows keep the same distance from each slot's start."
  );
}

/**
 * "Change date or time": moves a slot to other times, on its date or another (made when the event has no
 * such date). Tickets stay valid; every holder is e-mailed old and new, and after a move to another day
 * may cancel for a full refund until the new start. The server decides all of it (reschedule-slot.ts).
 */
function MoveSlot({
  base,
  slot,
  day,
  label,
  run,
}: {
  base: Base;
  slot: Slot;
  day: string;
  label: string;
  run: Run;
}) {
  const move = trpc.organiser.updateSlotTime.useMutation();
  const form = useForm<z.infer<typeof SlotMoveFields>>({
    resolver: zodResolver(SlotMoveFields),
    defaultValues: {
      day,
      startTime: formatInIndia(slot.startTime, 'HH:mm'),
      endTime: formatInIndia(slot.endTime, 'HH:mm'),
    },
  });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const newDay = form.watch('day') !== day;
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    setDone(null);
    try {
      await run(async () => {
        const result = await move.mutateAsync({ ...base, slotId: slot.id, ...values });
        const mailed =
          result.holdersMailed > 0
            ? ` ${result.holdersMailed} ticket ${result.holdersMailed === 1 ? 'holder was' : 'holders were'} e-mailed the new ${result.dateMoved ? 'date' : 'time'}${result.dateMoved ? ' and may cancel for a full refund until the show starts' : ''}.`
            : '';
        setDone(`Moved.${mailed}`);
      });
      form.reset(values);
    } catch (e) {
      setError(slotErrorOn(form, e));
    }
  });
  return (
    <details className="mt-2">
      <summary className="cursor-pointer font-semibold text-brand-700">Change date or time</summary>
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label={`Change date or time of slot ${label}`}
        className="mt-3 grid max-w-md grid-cols-2 gap-2"
      >
        <UnsavedChangesGuard form={form} />
        <div className="col-span-2">
          <TextField
            label="Date"
            type="date"
            error={form.formState.errors.day?.message}
            {...form.register('day')}
          />
        </div>
        <TextField
          label="New start (India time)"
          type="time"
          error={form.formState.errors.startTime?.message}
          {...form.register('startTime')}
        />
        <TextField
          label="New end (India time)"
          type="time"
          hint={slotEndsNextDay(form.watch()) ? 'Ends the next day' : undefined}
          error={form.formState.errors.endTime?.message}
          {...form.register('endTime')}
        />
        <div className="col-span-2">
          <p className="mb-2 text-sm text-gray-600">
            {newDay
              ? 'Tickets stay valid for the new date. Everyone holding one is e-mailed, and may cancel for a full refund until the show starts, even if their tickets are not refundable.'
              : 'Everyone holding a ticket for this slot is e-mailed the old and new time.'}
          </p>
          <EditError message={error} />
          {done && (
            <p role="status" className="mb-2 text-sm text-green-800">
              {done}
            </p>
          )}
          <SubmitButton busy={form.formState.isSubmitting} busyText="Saving...">
            {newDay ? 'Move to this date' : 'Save new time'}
          </SubmitButton>
        </div>
      </form>
    </details>
  );
}

function PublishSection({ event, run }: { event: Editable; run: Run }) {
  const publish = trpc.organiser.publish.useMutation();
  const unpublish = trpc.organiser.unpublish.useMutation();
  const [missing, setMissing] = useState<string[]>([]);
  const action = useEditAction(run);
  const base = { eventId: event.id, version: event.version };
  return (
    <section aria-labelledby="publish-heading">
      <h2 id="publish-heading" className="text-xl font-bold">
        Publish
      </h2>
      {event.status === 'draft' && event.adminHold && (
        // An admin's take-down holds until an admin releases it (the server refuses the team's publish).
        <div role="status" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          <p className="font-semibold">An administrator took this event off sale.</p>
          {event.adminHold.reason && <p className="mt-1">Reason: {event.adminHold.reason}</p>}
          <p className="mt-1">
            It can be published again only after an administrator releases it. You can still correct it here;
            then ask through{' '}
            <Link to="/Contact_Us" className="font-semibold underline">
              Contact Us
            </Link>
            .
          </p>
        </div>
      )}
      {event.status === 'draft' && (
        <>
          <p className="mt-1 text-gray-700">Buyers see the event on its city's list once it is published.</p>
          <InvoicingNotice invoicing={event.invoicing} />
          <button
            type="button"
            disabled={publish.isPending}
            onClick={() =>
              action.act(async () => {
                const result = await publish.mutateAsync(base);
                setMissing(result.published ? [] : result.missing);
              })
            }
            className="mt-3 rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white disabled:opacity-70"
          >
            {publish.isPending ? 'Publishing...' : 'Publish event'}
          </button>
          {missing.length > 0 && (
            <div role="alert" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
              <p className="font-semibold">Before it can be published:</p>
              <ul className="mt-1 list-disc pl-5">
                {missing.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
      {event.status === 'published' && (
        <>
          <p className="mt-1 text-gray-700">The event is on sale.</p>
          <InvoicingNotice invoicing={event.invoicing} />
          <button
            type="button"
            disabled={unpublish.isPending}
            onClick={() => action.act(() => unpublish.mutateAsync(base))}
            className="mt-3 rounded-md border border-gray-300 px-4 py-2.5 font-semibold disabled:opacity-70"
          >
            {unpublish.isPending ? 'Unpublishing...' : 'Unpublish'}
          </button>
        </>
      )}
      <EditError message={action.error} />
    </section>
  );
}

/**
 * Issue 35: the publish checklist's GST line. A registered organiser without complete invoice details
 * is told publishing waits for them (the server refuses too); an unregistered one, that no GST invoice
 * will be issued and why.
 */
function InvoicingNotice({ invoicing }: { invoicing: Editable['invoicing'] }) {
  const notice = invoicingNotice(invoicing);
  if (!notice) return null;
  const blocking = invoicing.registered;
  return (
    <p
      className={`mt-2 rounded-md p-3 text-sm ${blocking ? 'bg-amber-50 text-amber-900' : 'bg-gray-50 text-gray-700'}`}
    >
      {blocking && <span className="font-semibold">Before it can be published: </span>}
      {notice}{' '}
      <Link to="/organiser/profile" className="font-semibold underline">
        Organiser profile
      </Link>
    </p>
  );
}
