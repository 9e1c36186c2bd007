import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData } from '@tanstack/react-query';
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatDateTime } from '../../../shared/dates.ts';
import { formatPaise } from '../../../shared/money.ts';
import {
  MAX_ORDER_SEARCH,
  ORDER_PAGE_SIZES,
  ORDER_STATUS_LABELS,
  ORDER_STATUSES,
  OrdersFilter,
} from '../../../shared/sales-schemas.ts';
import { fieldBinder, SelectField, TextField } from '../../components/auth-fields.tsx';
import { ConsoleEventHeader, useLayoutEvent } from '../../components/console/event-page.tsx';
import { Pager } from '../../components/console/pager.tsx';
import { ScrollTable, Th } from '../../components/console/scroll-table.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/_event/organiser/events/$eventId/orders')({
  component: OrdersPage,
});

type Order = RouterOutputs['console']['orders']['orders'][number];
type FilterForm = z.input<typeof OrdersFilter>;
type PageSize = (typeof ORDER_PAGE_SIZES)[number];

const SORT_LABELS = { newest: 'Newest first', oldest: 'Oldest first' } as const;

function OrdersPage() {
  const { eventId } = Route.useParams();
  const search = Route.useSearch();
  // The URL may say anything; what the server would refuse is shown as no filter.
  const parsed = OrdersFilter.safeParse(search);
  const filter = parsed.success ? parsed.data : OrdersFilter.parse({});
  const event = useLayoutEvent();
  return (
    <section className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8">
      <ConsoleEventHeader title={`Orders of ${event.name}`} />
      <Filters eventId={eventId} filter={filter} />
      {/* A new filter starts again at page one. */}
      <OrdersTable key={JSON.stringify(filter)} eventId={eventId} filter={filter} />
    </section>
  );
}

function Filters({ eventId, filter }: { eventId: string; filter: z.output<typeof OrdersFilter> }) {
  const navigate = useNavigate({ from: '/organiser/events/$eventId/orders' });
  const dashboard = trpc.console.salesDashboard.useQuery({ eventId });
  const slots = dashboard.data?.slots ?? [];
  const slotLabels = Object.fromEntries(slots.map((s) => [s.id, formatDateTime(s.startTime)]));
  const form = useForm<FilterForm, unknown, z.output<typeof OrdersFilter>>({
    resolver: zodResolver(OrdersFilter),
    values: {
      q: filter.q ?? '',
      slotId: filter.slotId ?? '',
      status: filter.status ?? '',
      sort: filter.sort,
    },
  });
  const field = fieldBinder(form);
  const sortId = useId();
  const onSubmit = form.handleSubmit((values) =>
    navigate({
      search: {
        q: values.q,
        slotId: values.slotId,
        status: values.status,
        sort: values.sort === 'newest' ? undefined : values.sort,
      },
    }),
  );
  const csvQuery = new URLSearchParams(
    Object.entries(filter).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  ).toString();
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      role="search"
      aria-label="Orders"
      className="grid gap-3 rounded-xl border border-gray-200 p-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
    >
      <TextField
        label="Search orders"
        type="search"
        placeholder="Name, e-mail, mobile or booking id"
        maxLength={MAX_ORDER_SEARCH}
        className="lg:col-span-2"
        {...field('q')}
      />
      <SelectField
        label="Slot"
        placeholder="All slots"
        options={slots.map((s) => s.id)}
        optionLabels={slotLabels}
        {...field('slotId')}
      />
      <SelectField
        label="Status"
        placeholder="All statuses"
        options={ORDER_STATUSES}
        optionLabels={ORDER_STATUS_LABELS}
        {...field('status')}
      />
      <div>
        <label htmlFor={sortId} className="block text-sm font-medium text-gray-800">
          Order
        </label>
        <select
          id={sortId}
          className="mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base shadow-sm"
          {...form.register('sort')}
        >
          {(['newest', 'oldest'] as const).map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap items-center gap-3 lg:col-span-5">
        <button
          type="submit"
          className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          Search
        </button>
        {/* A plain link: the browser downloads the streamed file with the session cookie. */}
        <a
          href={`/api/organiser/events/${encodeURIComponent(eventId)}/orders.csv${csvQuery ? `?${csvQuery}` : ''}`}
          download
          className="rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50"
        >
          Download CSV
        </a>
      </div>
    </form>
  );
}

function OrdersTable({ eventId, filter }: { eventId: string; filter: z.output<typeof OrdersFilter> }) {
  const [limit, setLimit] = useState<PageSize>(25);
  // Cursors of the pages before this one, so "Previous" goes back without offsets.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors.at(-1);
  const page = trpc.console.orders.useQuery(
    { eventId, ...filter, limit, after },
    { placeholderData: keepPreviousData },
  );
  const invoices = trpc.invoices.forEvent.useQuery(
    { eventId, bookings: (page.data?.orders ?? []).map((o) => o.id) },
    { enabled: (page.data?.orders.length ?? 0) > 0 },
  );
  if (page.isPending) return <LoadingText />;
  if (!page.data) return <NoticeText text={messageOf(page.error)} />;
  const { orders, total, next } = page.data;
  const invoiceOf = new Map((invoices.data ?? []).map((i) => [i.bookingId, i]));
  const first = (cursors.length - 1) * limit + 1;
  return (
    <section aria-labelledby="orders-heading" aria-busy={page.isFetching}>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="orders-heading" className="text-xl font-bold">
          {total === 0 ? 'No orders' : `Orders ${first}–${first + orders.length - 1} of ${total}`}
        </h2>
        <label className="text-sm text-gray-700">
          Rows per page{' '}
          <select
            value={limit}
            onChange={(e) => {
              setLimit(Number(e.target.value) as PageSize);
              setCursors([undefined]);
            }}
            className="ml-1 rounded-md border border-gray-300 bg-white px-2 py-1"
          >
            {ORDER_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
      {orders.length > 0 && (
        <ScrollTable
          label="Orders"
          minWidth="min-w-[900px]"
          head={
            <>
              <Th>Booking</Th>
              <Th>Buyer</Th>
              <Th>Slot</Th>
              <Th>Tickets</Th>
              <Th right>Paid</Th>
              <Th>Status</Th>
              <Th right>Checked in</Th>
            </>
          }
        >
          {orders.map((order) => (
            <OrderRow key={order.id} eventId={eventId} order={order} invoice={invoiceOf.get(order.id)} />
          ))}
        </ScrollTable>
      )}
      <Pager
        label="Orders pages"
        hasPrevious={cursors.length > 1}
        hasNext={Boolean(next)}
        onPrevious={() => setCursors((list) => list.slice(0, -1))}
        onNext={() => next && setCursors((list) => [...list, next])}
      />
    </section>
  );
}

function OrderRow({
  eventId,
  order,
  invoice,
}: {
  eventId: string;
  order: Order;
  invoice?: { id: string; number: string; creditNoteNumber: string | null; creditNoteId: string | null };
}) {
  return (
    <tr>
      <th scope="row" className="px-4 py-3 align-top font-semibold">
        <Link
          to="/organiser/events/$eventId/bookings/$bookingId"
          params={{ eventId, bookingId: order.id }}
          className="font-mono text-brand-700 underline"
        >
          {order.id}
        </Link>
        <time dateTime={order.createdAt} className="block text-xs font-normal text-gray-600">
          {formatDateTime(order.createdAt)}
        </time>
        {invoice && (
          <a
            href={`/api/invoices/${encodeURIComponent(invoice.id)}.pdf`}
            download
            className="block text-xs font-normal text-brand-700 underline"
          >
            Invoice {invoice.number}
          </a>
        )}
        {invoice?.creditNoteId && (
          <a
            href={`/api/invoices/credit-notes/${encodeURIComponent(invoice.creditNoteId)}.pdf`}
            download
            className="block text-xs font-normal text-brand-700 underline"
          >
            Credit note {invoice.creditNoteNumber}
          </a>
        )}
      </th>
      <td className="px-4 py-3 align-top">
        <span className="font-semibold text-gray-900">{order.userName}</span>
        <span className="block text-xs text-gray-600">{order.userEmail}</span>
        <span className="block text-xs text-gray-600">{order.userPhone}</span>
      </td>
      <td className="px-4 py-3 align-top">{formatDateTime(order.slotStart)}</td>
      <td className="px-4 py-3 align-top">
        {order.lines.map((line) => (
          <span key={line.id} className="block">
            {line.name} × {line.quantity}
          </span>
        ))}
      </td>
      <td className="px-4 py-3 text-right align-top tabular-nums">
        {formatPaise(order.totalPaise)}
        {order.refundedPaise > 0 && (
          <span className="block text-xs text-gray-600">refunded {formatPaise(order.refundedPaise)}</span>
        )}
      </td>
      <td className="px-4 py-3 align-top">{ORDER_STATUS_LABELS[order.status]}</td>
      <td className="px-4 py-3 text-right align-top tabular-nums">
        {order.checkedIn} / {order.persons}
      </td>
    </tr>
  );
}
