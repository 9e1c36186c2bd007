import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import {
  invoicingNotice,
  type TicketSaleGstProblem,
  ticketSaleGstProblemMessage,
} from '../../../shared/gst-schemas.ts';
import { trpc } from '../../lib/trpc.ts';
import { EditError, type Run, useEditAction } from './edit-error.tsx';
import type { EditableEvent } from './editable-event.ts';

/** "Publish": publish a draft (or hear what it still lacks), or take a published event off sale. */
export function PublishSection({ event, run }: { event: EditableEvent; run: Run }) {
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
          <SaleGstProblemNotice problem={event.ticketSaleGstProblem} />
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
          <SaleGstProblemNotice problem={event.ticketSaleGstProblem} />
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
export function InvoicingNotice({ invoicing }: { invoicing: EditableEvent['invoicing'] }) {
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

const SALE_GST_PROBLEM_TITLES: Record<TicketSaleGstProblem['kind'], string> = {
  rateNotInForce: 'Update the GST rate: ',
  venueStateNotSet: 'Choose the venue’s state: ',
};

/**
 * Issue 36: a registered organiser's tickets are not sold while their GST rate is out of the schedule
 * (saved before 22 September 2025) or, in a city spanning states, the venue's state is not set (an event
 * published before it was asked for). A published event sells nothing until then, so "The event is on
 * sale" alone would mislead: the organiser is told here what and why.
 */
export function SaleGstProblemNotice({ problem }: { problem: TicketSaleGstProblem | null }) {
  if (problem === null) return null;
  return (
    <p role="alert" className="mt-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
      <span className="font-semibold">{SALE_GST_PROBLEM_TITLES[problem.kind]}</span>
      {ticketSaleGstProblemMessage(problem, 'organiser')}
    </p>
  );
}
