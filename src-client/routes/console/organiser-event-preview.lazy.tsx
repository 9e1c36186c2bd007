import { createLazyRoute, Link } from '@tanstack/react-router';
import { NotAllowedScreen } from '../../components/not-allowed.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';
import { EventDetailView } from '../buyer/event-detail.lazy.tsx';

export const Route = createLazyRoute('/_console/organiser/events/$eventId/preview')({
  component: EventPreviewPage,
});

/**
 * The real buyer event page (the same component) with the team's data: `organiser.preview` answers what
 * `events.byId` answers, for a draft too. Booking is switched off; the banner says buyers cannot see it.
 */
function EventPreviewPage() {
  const { eventId } = Route.useParams();
  const preview = trpc.organiser.preview.useQuery({ eventId });
  if (preview.isPending) return <LoadingText />;
  // Its own check, not a layout's: the whole team may preview it (organiser-event-preview.tsx).
  if (preview.error?.data?.code === 'FORBIDDEN') return <NotAllowedScreen />;
  if (!preview.data) return <NoticeText text={messageOf(preview.error, 'Event not found')} />;
  return (
    <>
      <div role="note" className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3">
          <p>
            <strong>Preview — not visible to buyers.</strong> Booking is switched off here; buyers see the
            page once the event is published.
          </p>
          <Link
            to="/organiser/events/$eventId/edit"
            params={{ eventId }}
            className="font-semibold text-amber-950 underline"
          >
            Back to the editor
          </Link>
        </div>
      </div>
      <EventDetailView event={preview.data} preview />
    </>
  );
}
