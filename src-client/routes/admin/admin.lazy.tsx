import { createLazyRoute, Link } from '@tanstack/react-router';
import { type ReactNode, useId, useState } from 'react';
import type { AdminPage as Paged } from '../../../shared/admin-schemas.ts';
import { formatLongDate } from '../../../shared/dates.ts';
import { formatPaise } from '../../../shared/money.ts';
import { GrantRoleInput } from '../../../shared/organiser-schemas.ts';
import { ConfirmButton } from '../../components/console/confirm-button.tsx';
import { ConvenienceFeeCapForm } from '../../components/console/convenience-fee-cap-form.tsx';
import { EmailRoleForm } from '../../components/console/email-role-form.tsx';
import { EVENT_STATUS_LABELS } from '../../components/console/event-status.ts';
import { Pager } from '../../components/console/pager.tsx';
import { PlatformEInvoicing } from '../../components/console/platform-e-invoicing.tsx';
import { ScrollTable, Th } from '../../components/console/scroll-table.tsx';
import { InvoiceMonthDownloads } from '../../components/invoice-month-downloads.tsx';
import { LoadingText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_admin/admin')({ component: AdminPage });

type OrganiserRequest = RouterOutputs['admin']['organiserRequests'][number];
type Organiser = RouterOutputs['admin']['organisers']['items'][number];
type PlatformEvent = RouterOutputs['admin']['events']['items'][number];

function AdminPage() {
  // Admins only: the admin layout's check.
  return (
    <section className="mx-auto w-full max-w-6xl space-y-10 px-4 py-8">
      <h1 className="text-3xl font-extrabold text-gray-900">Admin</h1>
      <PlatformTotals />
      <OrganiserRequests />
      <Organisers />
      <AllEvents />
      <GrantOrganiser />
      <FeeCap />
      <PlatformInvoices />
      <PlatformEInvoicing />
    </section>
  );
}

/** The platform's own fee invoices and their credit notes, for the operator's returns (issue 36). */
function PlatformInvoices() {
  return (
    <section aria-labelledby="platform-invoices-heading" className="max-w-xl">
      <h2 id="platform-invoices-heading" className="text-xl font-bold text-gray-900">
        Platform invoices
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        The convenience-fee invoices the platform issued in a month, and their credit notes: as a CSV, or as
        GSTR-1 (a ZIP of the GST offline tool's tables).
      </p>
      <InvoiceMonthDownloads base="/api/invoices/platform" />
    </section>
  );
}

function OrganiserRequests() {
  const requests = trpc.admin.organiserRequests.useQuery();
  return (
    <section aria-labelledby="requests-heading">
      <h2 id="requests-heading" className="text-xl font-bold text-gray-900">
        Organiser requests
      </h2>
      {requests.isPending ? (
        <LoadingText />
      ) : !requests.data || requests.data.length === 0 ? (
        <p className="mt-3 text-gray-600">No requests yet.</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {requests.data.map((request) => (
            <RequestCard key={request.id} request={request} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RequestCard({ request }: { request: OrganiserRequest }) {
  const utils = trpc.useUtils();
  const done = { onSettled: () => utils.admin.organiserRequests.invalidate() };
  const approve = trpc.admin.approveRequest.useMutation(done);
  const decline = trpc.admin.declineRequest.useMutation(done);
  const busy = approve.isPending || decline.isPending;
  const error = approve.error ?? decline.error;
  const headingId = `request-${request.id}`;
  return (
    <li aria-labelledby={headingId} className="rounded-xl border border-gray-200 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={headingId} className="font-bold text-gray-900">
            {request.organisationName}
          </h3>
          <p className="text-sm text-gray-700">
            {request.requesterName ?? request.requesterEmail} · {request.requesterEmail} ·{' '}
            {request.contactPhone}
          </p>
          <p className="text-sm text-gray-700">
            {request.city} · GSTIN {request.gstin ?? 'not given'} · sent {formatLongDate(request.createdAt)}
          </p>
          <p className="mt-2 whitespace-pre-line text-gray-800">{request.whatTheyRun}</p>
        </div>
        {request.status === 'pending' ? (
          <div className="flex gap-2">
            <button
              type="button"
              disabled={busy}
              onClick={() => approve.mutate({ requestId: request.id })}
              aria-label={`Approve ${request.organisationName}`}
              className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
            >
              Approve
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => decline.mutate({ requestId: request.id })}
              aria-label={`Decline ${request.organisationName}`}
              className="rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50 disabled:opacity-60"
            >
              Decline
            </button>
          </div>
        ) : (
          <p className="rounded-full bg-gray-100 px-3 py-1 text-sm font-semibold text-gray-800">
            {request.status === 'approved' ? 'Approved' : 'Declined'}
          </p>
        )}
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {messageOf(error)}
        </p>
      )}
    </li>
  );
}

const ROLE_LABELS = { organiser: 'Organiser', none: 'No organiser rights' } as const;

function GrantOrganiser() {
  const utils = trpc.useUtils();
  const grant = trpc.admin.setOrganiser.useMutation({ onSuccess: () => utils.admin.organisers.invalidate() });
  return (
    <section aria-labelledby="grant-heading" className="max-w-md">
      <h2 id="grant-heading" className="text-xl font-bold text-gray-900">
        Organiser rights
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        Give an account organiser rights without a request, or take them away.
      </p>
      <EmailRoleForm
        schema={GrantRoleInput}
        defaultRole="organiser"
        emailLabel="Account e-mail"
        roleLabel="Rights"
        rolePlaceholder="Choose"
        roles={['organiser', 'none'] as const}
        roleLabels={ROLE_LABELS}
        submitLabel="Save"
        busyText="Saving..."
        onSubmit={async (values) => {
          await grant.mutateAsync(values);
          return values.role === 'organiser'
            ? `${values.email} can now list events.`
            : `${values.email} no longer has organiser rights.`;
        }}
      />
    </section>
  );
}

function FeeCap() {
  const cap = trpc.admin.convenienceFeeCap.useQuery();
  return (
    <section aria-labelledby="fee-cap-heading" className="max-w-md">
      <h2 id="fee-cap-heading" className="text-xl font-bold text-gray-900">
        Convenience fee cap
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        No event may charge buyers more than this. Events above it are lowered to it when you save; orders
        already paid keep their fee.
      </p>
      {cap.data ? <ConvenienceFeeCapForm percent={cap.data.percent} /> : <LoadingText />}
    </section>
  );
}

function PlatformTotals() {
  const totals = trpc.admin.totals.useQuery();
  const figures: [string, ReactNode][] = totals.data
    ? [
        ['Events on sale or past', totals.data.events.published],
        ['Drafts', totals.data.events.draft],
        ['Cancelled events', totals.data.events.cancelled],
        ['Tickets sold', totals.data.ticketsSold],
        ['Gross (face value)', formatPaise(totals.data.grossPaise)],
        ['Convenience fees', formatPaise(totals.data.feesPaise)],
        ['Refunds', `${totals.data.refunds} · ${formatPaise(totals.data.refundsPaise)}`],
      ]
    : [];
  return (
    <section aria-labelledby="totals-heading">
      <h2 id="totals-heading" className="text-xl font-bold text-gray-900">
        Platform totals
      </h2>
      {totals.isPending ? (
        <LoadingText />
      ) : (
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {figures.map(([label, value]) => (
            <div key={label} className="rounded-xl border border-gray-200 p-3">
              <dt className="text-sm text-gray-700">{label}</dt>
              <dd className="mt-1 text-lg font-bold tabular-nums text-gray-900">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function Organisers() {
  const [page, setPage] = useState(1);
  const organisers = trpc.admin.organisers.useQuery({ page }, { placeholderData: (previous) => previous });
  return (
    <PagedList
      title="Organisers"
      empty="No organisers yet."
      columns={['Organiser', 'Events', 'Since', '']}
      query={organisers}
      onPage={setPage}
      row={(organiser) => <OrganiserRow key={organiser.userId} organiser={organiser} />}
    />
  );
}

function OrganiserRow({ organiser }: { organiser: Organiser }) {
  const utils = trpc.useUtils();
  const revoke = trpc.admin.setOrganiser.useMutation({
    onSettled: () => utils.admin.organisers.invalidate(),
  });
  const who = organiser.name ?? organiser.email;
  return (
    <tr>
      <th scope="row" className="px-4 py-3 font-semibold text-gray-900">
        {who}
        <span className="block text-xs font-normal text-gray-700">{organiser.email}</span>
      </th>
      <td className="px-4 py-3 tabular-nums">{organiser.eventsCount}</td>
      <td className="px-4 py-3">
        <time dateTime={organiser.since}>{formatLongDate(organiser.since)}</time>
      </td>
      <td className="px-4 py-3 text-right">
        <ConfirmButton
          label="Revoke"
          question={`Take organiser rights away from ${who}? Their events stay as they are.`}
          busy={revoke.isPending}
          error={revoke.error}
          onConfirm={() => revoke.mutate({ email: organiser.email, role: 'none' })}
          name={who}
        />
      </td>
    </tr>
  );
}

function AllEvents() {
  const [page, setPage] = useState(1);
  const events = trpc.admin.events.useQuery({ page }, { placeholderData: (previous) => previous });
  return (
    <PagedList
      title="All events"
      empty="No events yet."
      columns={['Event', 'Owner', 'Status', 'Date', 'Sold', '']}
      query={events}
      onPage={setPage}
      row={(event) => <PlatformEventRow key={event.id} event={event} />}
    />
  );
}

function PlatformEventRow({ event }: { event: PlatformEvent }) {
  const utils = trpc.useUtils();
  const unpublish = trpc.admin.unpublishEvent.useMutation({
    onSettled: () => Promise.all([utils.admin.events.invalidate(), utils.admin.totals.invalidate()]),
  });
  const release = trpc.admin.releaseEvent.useMutation({
    onSettled: () => utils.admin.events.invalidate(),
  });
  const date = event.nextStart ?? event.startTime;
  return (
    <tr>
      <th scope="row" className="px-4 py-3 font-semibold text-gray-900">
        {/* Drafts and cancelled events are not on the storefront: the admin opens the team's preview. */}
        <Link
          to={
            event.status === 'draft' || event.status === 'cancelled'
              ? '/organiser/events/$eventId/preview'
              : '/events/$eventId'
          }
          params={{ eventId: event.id }}
          className="underline"
        >
          {event.name}
        </Link>
        <span className="block text-xs font-normal text-gray-700">{event.city}</span>
      </th>
      <td className="px-4 py-3">
        {event.ownerName ?? event.ownerEmail ?? '—'}
        {event.ownerEmail && <span className="block text-xs text-gray-700">{event.ownerEmail}</span>}
      </td>
      <td className="px-4 py-3">
        {EVENT_STATUS_LABELS[event.status]}
        {event.onHold && <span className="block text-xs text-gray-700">Held by an admin</span>}
      </td>
      <td className="px-4 py-3">
        <time dateTime={date}>{formatLongDate(date)}</time>
      </td>
      <td className="px-4 py-3 tabular-nums">
        {event.sold} / {event.capacity}
      </td>
      <td className="px-4 py-3 text-right">
        {event.status !== 'draft' && event.status !== 'cancelled' && (
          <ConfirmButton
            label="Unpublish"
            question={`Take ${event.name} off sale? Buyers stop seeing it; bookings stay valid and the owner is e-mailed. Only an admin can release it afterwards.`}
            busy={unpublish.isPending}
            error={unpublish.error}
            onConfirm={() => unpublish.mutate({ eventId: event.id, version: event.version })}
            name={event.name}
          />
        )}
        {event.onHold && (
          <ConfirmButton
            label="Release"
            question={`Release the hold on ${event.name}? It stays a draft; its owner may publish it again and is e-mailed.`}
            busy={release.isPending}
            error={release.error}
            onConfirm={() => release.mutate({ eventId: event.id })}
            name={event.name}
          />
        )}
      </td>
    </tr>
  );
}

/** A titled, server-paged list: a table that scrolls sideways on a phone, with previous / next. */
function PagedList<T>(props: {
  title: string;
  empty: string;
  columns: string[];
  query: { isPending: boolean; data?: Paged<T> };
  onPage: (page: number) => void;
  row: (item: T) => ReactNode;
}) {
  const headingId = useId();
  const { data } = props.query;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-bold text-gray-900">
        {props.title}
      </h2>
      {props.query.isPending ? (
        <LoadingText />
      ) : !data || data.total === 0 ? (
        <p className="mt-3 text-gray-600">{props.empty}</p>
      ) : (
        <>
          <ListTable label={props.title} columns={props.columns}>
            {data.items.map(props.row)}
          </ListTable>
          <Pager
            label={`${props.title} pages`}
            position={`Page ${data.page} of ${pageCount(data)}`}
            hasPrevious={data.page > 1}
            hasNext={data.page < pageCount(data)}
            onPrevious={() => props.onPage(data.page - 1)}
            onNext={() => props.onPage(data.page + 1)}
          />
        </>
      )}
    </section>
  );
}

function pageCount(paged: { total: number; pageSize: number }): number {
  return Math.max(1, Math.ceil(paged.total / paged.pageSize));
}

/** A server-paged list; an empty column name is the row actions' column. */
function ListTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  return (
    <ScrollTable
      label={label}
      className="mt-4"
      head={columns.map((column, i) => (
        <Th key={column || i}>{column || <span className="sr-only">Actions</span>}</Th>
      ))}
    >
      {children}
    </ScrollTable>
  );
}
