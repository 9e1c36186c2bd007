import { Link } from '@tanstack/react-router';
import { trpc } from '../../lib/trpc.ts';
import { AddDateForm } from './add-date-form.tsx';
import { AddOnsSection } from './add-ons-section.tsx';
import { AttendeeQuestionsSection } from './attendee-questions-section.tsx';
import { CancelEventSection } from './cancel-dialogs.tsx';
import { DateBlock } from './date-block.tsx';
import type { EditableEvent } from './editable-event.ts';
import { EventDetailsForm } from './event-details-form.tsx';
import { EventGstSection } from './event-gst-section.tsx';
import { ConsoleEventHeader } from './event-page.tsx';
import { PublishSection } from './publish-section.tsx';
import { QuotasSection } from './quotas-section.tsx';
import { useEdit } from './use-edit.ts';
import { WaitingRoomSection } from './waiting-room-section.tsx';

const STATUS_LABELS: Record<EditableEvent['status'], string> = {
  draft: 'Draft',
  published: 'Published',
  cancelled: 'Cancelled',
};

/** The event editor's page: every section of the event, each saving on its own. */
export function EventEditor({ event }: { event: EditableEvent }) {
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
      <ConsoleEventHeader title={event.name}>
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
        <AddDateForm base={base} run={run} />
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
