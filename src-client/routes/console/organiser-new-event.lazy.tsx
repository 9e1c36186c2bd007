import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { EMPTY_DETAILS, EventDetailsForm } from '../../components/console/event-details-form.tsx';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/organiser/events/new')({ component: NewEventPage });

function NewEventPage() {
  const navigate = useNavigate();
  // For organisers and admins only: the console layout's check (staticData.organiserOnly).
  const create = trpc.organiser.createEvent.useMutation();
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8">
      <Link to="/organiser" className="text-sm font-semibold text-brand-700 underline">
        Organiser console
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-gray-900">Create event</h1>
      <p className="mt-1 text-gray-600">It starts as a draft: buyers see it only once you publish it.</p>
      <div className="mt-6">
        <EventDetailsForm
          initial={EMPTY_DETAILS}
          submitLabel="Create draft"
          onSave={async (values) => {
            const { eventId } = await create.mutateAsync(values);
            await navigate({ to: '/organiser/events/$eventId/edit', params: { eventId } });
          }}
        />
      </div>
    </section>
  );
}
