import { createLazyRoute, Link, Navigate } from '@tanstack/react-router';
import { Fragment } from 'react';
import { formatDateTime } from '../../../shared/dates.ts';
import { formatPaise } from '../../../shared/money.ts';
import { TEAM_ROLE_LABELS } from '../../../shared/organiser-schemas.ts';
import { sectionsFor } from '../../components/console/event-nav.tsx';
import { EVENT_STATUS_LABELS } from '../../components/console/event-status.ts';
import { ScrollTable, Td, Th } from '../../components/console/scroll-table.tsx';
import { LoadingText, NoResults } from '../../components/status-screens.tsx';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/organiser')({ component: ConsoleHome });

type MyEvent = RouterOutputs['console']['myEvents'][number];

function ConsoleHome() {
  const events = trpc.console.myEvents.useQuery();
  // Fresh each time: an admin may have just approved the request. Signing in is the console layout's
  // check; where to send someone with no rights and no team is this page's alone.
  const access = trpc.console.access.useQuery(undefined, { staleTime: 0 });
  // Neither organiser rights nor a place on a team: the "List your Event" form instead. It only decides
  // where to send a person; every console procedure authorises itself on the server.
  if (access.data && access.data.role === 'none' && access.data.teamEvents === 0) {
    return <Navigate to="/list-your-event" replace />;
  }
  // Gate staff are not told the takings (the server sends none): no column of dashes for them.
  const showMoney = events.data?.some((e) => e.ticketRevenuePaise !== null) ?? false;
  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-8">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-3xl font-extrabold text-gray-900">Organiser console</h1>
        <div className="flex flex-wrap items-center gap-4">
          {access.data?.role === 'admin' && (
            <Link to="/admin" className="font-semibold text-brand-700 underline">
              Admin page
            </Link>
          )}
          {(access.data?.role === 'organiser' || access.data?.role === 'admin') && (
            <>
              <Link to="/organiser/profile" className="font-semibold text-brand-700 underline">
                Organiser profile &amp; invoices
              </Link>
              <Link to="/organiser/payouts" className="font-semibold text-brand-700 underline">
                Payouts by month
              </Link>
              <Link
                to="/organiser/events/new"
                className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
              >
                Create event
              </Link>
            </>
          )}
        </div>
      </div>
      {access.data?.role === 'none' && (
        <p className="mt-2 text-gray-700">
          You are on the team of the events below. To run events of your own,{' '}
          <Link to="/list-your-event" className="font-semibold text-brand-700 underline">
            List your Event
          </Link>
          .
        </p>
      )}
      <h2 className="mt-6 text-xl font-bold text-gray-900">My events</h2>
      {events.isPending ? (
        <LoadingText />
      ) : !events.data || events.data.length === 0 ? (
        <NoResults title="No events yet">
          <p className="mt-2 text-gray-600">
            Events you own, and events whose team you join, will be listed here.
          </p>
        </NoResults>
      ) : (
        <ScrollTable
          label="My events"
          className="mt-4"
          head={
            <>
              <Th>Event</Th>
              <Th>Status</Th>
              <Th>Next date</Th>
              <Th right>Sold / capacity</Th>
              {showMoney && (
                <>
                  <Th right>Ticket revenue</Th>
                  <Th right>Payable</Th>
                </>
              )}
            </>
          }
        >
          {events.data.map((event) => (
            <EventRow key={event.id} event={event} showMoney={showMoney} />
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

function EventRow({ event, showMoney }: { event: MyEvent; showMoney: boolean }) {
  return (
    <tr>
      <th scope="row" className="px-4 py-3 font-semibold text-gray-900">
        {event.name}
        <span className="block text-xs font-normal text-gray-600">
          {event.city} · {event.myRole === 'owner' ? 'Owner' : TEAM_ROLE_LABELS[event.myRole]}
          {sectionsFor(event.myRole).map(({ section, label, to }) => (
            <Fragment key={section}>
              {' · '}
              <Link to={to} params={{ eventId: event.id }} className="text-brand-700 underline">
                {label}
              </Link>
            </Fragment>
          ))}
          {/* The box office does not run the gate (issue 40). */}
          {event.myRole !== 'box_office' && (
            <>
              {' · '}
              <Link to="/gate" className="text-brand-700 underline">
                Gate scanner
              </Link>
            </>
          )}
        </span>
      </th>
      <td className="px-4 py-3">{EVENT_STATUS_LABELS[event.status]}</td>
      <td className="px-4 py-3">
        {event.nextStart ? <time dateTime={event.nextStart}>{formatDateTime(event.nextStart)}</time> : '—'}
      </td>
      <Td>
        {event.sold} / {event.capacity}
      </Td>
      {showMoney && (
        <>
          <Td>{event.ticketRevenuePaise === null ? '—' : formatPaise(event.ticketRevenuePaise)}</Td>
          <Td>{event.payablePaise === null ? '—' : formatPaise(event.payablePaise)}</Td>
        </>
      )}
    </tr>
  );
}
