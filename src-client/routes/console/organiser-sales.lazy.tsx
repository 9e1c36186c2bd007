import { createLazyRoute } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { formatDateTime, formatInIndia, formatLongDate, formatTime } from '../../../shared/dates.ts';
import { formatPaise, formatPaiseExact } from '../../../shared/money.ts';
import { DiscountCodesSection } from '../../components/console/discount-codes-section.tsx';
import { ConsoleEventHeader, useLayoutEvent } from '../../components/console/event-page.tsx';
import { GatePanel } from '../../components/console/gate-panel.tsx';
import { SalesChart, type SalesPoint } from '../../components/console/sales-chart.tsx';
import { ScrollTable, Td, Th } from '../../components/console/scroll-table.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/_event/organiser/events/$eventId/sales')({
  component: SalesPage,
});

type Dashboard = RouterOutputs['console']['salesDashboard'];

function SalesPage() {
  const { eventId } = Route.useParams();
  // Who may see the sales (not gate staff, not the box office) is the event layout's check.
  const event = useLayoutEvent();
  const dashboard = trpc.console.salesDashboard.useQuery({ eventId });
  return (
    <section className="mx-auto w-full max-w-6xl space-y-8 px-4 py-8">
      <ConsoleEventHeader title={`Sales of ${event.name}`} />
      {dashboard.isPending ? (
        <LoadingText />
      ) : dashboard.data ? (
        <>
          <MoneyPanel money={dashboard.data.money} checkIns={dashboard.data.checkIns} />
          {/* The owner's and admins' (viewPayouts): a co-organiser sees the totals above, not the statement. */}
          {(event.myRole === 'owner' || event.myRole === 'admin') && <PayoutStatement eventId={eventId} />}
          <SalesOverTime eventId={eventId} />
          <TicketTypesPanel types={dashboard.data.ticketTypes} />
          <SlotsPanel slots={dashboard.data.slots} />
          <DiscountCodesSection eventId={eventId} ticketTypes={dashboard.data.ticketTypes} />
          {/* Live: admitted / expected per slot and gate, and any double entry (issue 15). */}
          <GatePanel eventId={eventId} />
        </>
      ) : (
        <NoticeText text={messageOf(dashboard.error)} />
      )}
    </section>
  );
}

function MoneyPanel({ money, checkIns }: { money: Dashboard['money']; checkIns: Dashboard['checkIns'] }) {
  return (
    <section aria-labelledby="money-heading">
      <h2 id="money-heading" className="text-xl font-bold">
        Money and check-ins
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-5">
        {/* One definition (services/sales/event-money.ts), the same the console's list shows. */}
        <Figure label="Ticket revenue" value={formatPaiseExact(money.ticketRevenuePaise)}>
          {/* The invoices' GST covers the add-ons too (event-money.ts): say so when there are any. */}
          {money.orders} {money.orders === 1 ? 'order' : 'orders'},{' '}
          {money.addOnRevenuePaise > 0 ? 'GST on tickets and add-ons' : 'GST in it'}{' '}
          {formatPaiseExact(money.ticketGstPaise)}
        </Figure>
        {money.addOnRevenuePaise > 0 && (
          <Figure label="Add-on revenue" value={formatPaiseExact(money.addOnRevenuePaise)}>
            Parking, merchandise and the like, GST in it; yours, apart from tickets
          </Figure>
        )}
        <Figure label="Platform fees" value={formatPaiseExact(money.platformFeesPaise)}>
          Convenience fees and their GST: the platform's, not yours
        </Figure>
        <Figure label="Refunds" value={formatPaiseExact(money.refundsPaise)}>
          {money.cancelledOrders} cancelled, {formatPaiseExact(money.ticketRefundsPaise)} of it from your
          revenue
          {money.refundsPendingPaise > 0 && `, ${formatPaise(money.refundsPendingPaise)} pending`}
        </Figure>
        {/* Issue 40 (ADR 0042): comps apart, door sales by method; the door's money is already yours. */}
        <Figure label="At the box office" value={formatPaiseExact(money.collectedAtDoorPaise)}>
          collected at the door: {money.doorSales} {money.doorSales === 1 ? 'sale' : 'sales'} (cash{' '}
          {formatPaiseExact(money.doorCashPaise)}, UPI {formatPaiseExact(money.doorUpiPaise)}),{' '}
          {money.compOrders} complimentary
        </Figure>
        <Figure label="Payable to organiser" value={formatPaiseExact(money.payablePaise)}>
          Ticket revenue{money.addOnRevenuePaise > 0 ? ' + add-on revenue' : ''} − refunds from your revenue −
          collected at the door
        </Figure>
        <Figure label="Checked in" value={`${checkIns.peopleAdmitted} / ${checkIns.peopleExpected}`}>
          people, from {checkIns.bookingsCheckedIn} of {checkIns.bookings} bookings
        </Figure>
      </dl>
    </section>
  );
}

type Payout = NonNullable<RouterOutputs['console']['payoutStatement']['statement']>;

/**
 * The payout statement of one month (issue 40): the figures of the money panel above for that month
 * (the same definition, services/sales/get-payout-statement.ts), and its CSV with every month.
 */
function PayoutStatement({ eventId }: { eventId: string }) {
  const [month, setMonth] = useState<string | undefined>(undefined);
  const payout = trpc.console.payoutStatement.useQuery({ eventId, ...(month ? { month } : {}) });
  const months = payout.data?.months ?? [];
  const s = payout.data?.statement ?? null;
  const csvHref = `/api/organiser/events/${encodeURIComponent(eventId)}/payout.csv`;
  return (
    <section aria-labelledby="payout-heading">
      <h2 id="payout-heading" className="text-xl font-bold">
        Payout statement
      </h2>
      {payout.isPending ? (
        <LoadingText />
      ) : payout.error ? (
        <NoticeText text={messageOf(payout.error)} />
      ) : !s ? (
        <p className="mt-2 text-sm text-gray-600">No sales or refunds yet.</p>
      ) : (
        <>
          <div className="mt-3 flex flex-wrap items-end gap-3">
            <label className="text-sm font-semibold text-gray-700">
              Month (India time)
              <select
                className="mt-1 block rounded-md border border-gray-300 px-3 py-2"
                value={s.month}
                onChange={(e) => setMonth(e.target.value)}
              >
                {months.map((m) => (
                  <option key={m} value={m}>
                    {formatInIndia(`${m}-15T06:30:00.000Z`, 'MMMM yyyy')}
                  </option>
                ))}
              </select>
            </label>
            {/* Plain links: the browser downloads the streamed file with the session cookie. */}
            <a
              href={`${csvHref}?month=${s.month}`}
              download
              className="rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50"
            >
              Download this month (CSV)
            </a>
            <a
              href={csvHref}
              download
              className="rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50"
            >
              Download every month (CSV)
            </a>
          </div>
          <PayoutFigures s={s} />
        </>
      )}
    </section>
  );
}

function PayoutFigures({ s }: { s: Payout }) {
  const rows: [string, string, string?][] = [
    [
      'Ticket revenue',
      formatPaiseExact(s.ticketRevenuePaise),
      `${s.orders} ${s.orders === 1 ? 'order' : 'orders'} this month`,
    ],
    // Add-ons (ADR 0041), apart from tickets; shown when the month sold some.
    ...(s.addOnRevenuePaise > 0
      ? [
          ['Add-on revenue', formatPaiseExact(s.addOnRevenuePaise), 'Yours, GST included'] as [
            string,
            string,
            string,
          ],
        ]
      : []),
    s.addOnRevenuePaise > 0
      ? [
          'GST on tickets and add-ons',
          formatPaiseExact(s.ticketGstPaise),
          'In the ticket and add-on revenue; yours to pay',
        ]
      : [
          'GST collected on tickets',
          formatPaiseExact(s.ticketGstPaise),
          'In the ticket revenue; yours to pay',
        ],
    ['Convenience fees', formatPaiseExact(s.convenienceFeesPaise), "The platform's, not yours"],
    ['GST on convenience fees', formatPaiseExact(s.feeGstPaise), "The platform's, not yours"],
    [
      'Refunds',
      formatPaiseExact(s.refundsPaise),
      // The organiser's part (tickets and add-ons alike); the rest was the platform's fee.
      `${formatPaiseExact(s.ticketRefundsPaise)} of it from your revenue${s.refundsPendingPaise > 0 ? `, ${formatPaiseExact(s.refundsPendingPaise)} pending` : ''}`,
    ],
    ['Credit notes', `${s.creditNotes}`, `${formatPaiseExact(s.creditNotesPaise)} on your invoices`],
    ['Discounts given', formatPaiseExact(s.discountsPaise)],
    ['Complimentary bookings', `${s.comps}`, '₹0, not in the ticket revenue'],
    [
      'Collected at the door',
      formatPaiseExact(s.collectedAtDoorPaise),
      `${s.doorSales} door ${s.doorSales === 1 ? 'sale' : 'sales'}: cash ${formatPaiseExact(s.doorCashPaise)}, UPI ${formatPaiseExact(s.doorUpiPaise)}; already yours`,
    ],
    [
      'Payable to organiser',
      formatPaiseExact(s.payablePaise),
      // event-money.ts: the add-ons' money is the organiser's too, so it is in the payable.
      `Ticket revenue${s.addOnRevenuePaise > 0 ? ' + add-on revenue' : ''} − refunds from your revenue − collected at the door`,
    ],
  ];
  return (
    <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[14rem_1fr]">
      {rows.map(([label, value, note]) => (
        <div key={label} className="contents">
          <dt className="font-semibold text-gray-700">{label}</dt>
          <dd className="tabular-nums text-gray-900">
            {value}
            {note && <span className="ml-2 text-xs text-gray-600">{note}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-gray-200 p-4">
      <dt className="text-sm font-semibold text-gray-600">{label}</dt>
      <dd className="mt-1 text-xl font-extrabold text-gray-900 tabular-nums">{value}</dd>
      <dd className="mt-1 text-xs text-gray-600">{children}</dd>
    </div>
  );
}

function SalesOverTime({ eventId }: { eventId: string }) {
  const [bucket, setBucket] = useState<'day' | 'hour'>('day');
  const series = trpc.console.salesOverTime.useQuery({ eventId, bucket });
  const points: SalesPoint[] = series.data ?? [];
  return (
    <section aria-labelledby="chart-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="chart-heading" className="text-xl font-bold">
          Sales over time
        </h2>
        <fieldset className="flex gap-1 text-sm">
          <legend className="sr-only">Group sales by</legend>
          {(['day', 'hour'] as const).map((each) => (
            <button
              key={each}
              type="button"
              aria-pressed={bucket === each}
              onClick={() => setBucket(each)}
              className={`rounded-md border px-3 py-1.5 font-semibold ${
                bucket === each ? 'border-brand-600 bg-brand-600 text-white' : 'border-gray-300 text-gray-800'
              }`}
            >
              Per {each}
            </button>
          ))}
        </fieldset>
      </div>
      {series.isPending ? (
        <LoadingText />
      ) : points.length === 0 ? (
        <p className="mt-3 text-gray-600">No orders yet.</p>
      ) : (
        <div className="mt-3 rounded-xl border border-gray-200 p-3">
          <SalesChart points={points} bucket={bucket} />
          <SalesSummary points={points} bucket={bucket} />
        </div>
      )}
    </section>
  );
}

const bucketLabel = (start: string, bucket: 'day' | 'hour') =>
  bucket === 'day' ? formatLongDate(start) : formatInIndia(start, 'dd MMM yyyy, h a');

/** The chart's text alternative: a one-line summary, and every bucket in a table for those who want it. */
function SalesSummary({ points, bucket }: { points: SalesPoint[]; bucket: 'day' | 'hour' }) {
  const tickets = points.reduce((sum, p) => sum + p.tickets, 0);
  const gross = points.reduce((sum, p) => sum + p.grossPaise, 0);
  const best = points.reduce((top, p) => (p.tickets > top.tickets ? p : top), points[0]!);
  return (
    <div className="mt-3 text-sm text-gray-700">
      <p id="chart-summary">
        {tickets} tickets ({formatPaise(gross)}) over {points.length} {bucket}
        {points.length === 1 ? '' : 's'} with sales; busiest: {bucketLabel(best.start, bucket)} with{' '}
        {best.tickets} tickets.
      </p>
      <details className="mt-2">
        <summary className="cursor-pointer font-semibold text-brand-700">
          Sales per {bucket} as a table
        </summary>
        <ScrollTable
          label={`Sales per ${bucket}`}
          minWidth="min-w-[360px]"
          className="mt-2"
          head={
            <>
              <Th>{bucket === 'day' ? 'Day' : 'Hour'}</Th>
              <Th right>Orders</Th>
              <Th right>Tickets</Th>
              <Th right>Gross</Th>
            </>
          }
        >
          {points.map((p) => (
            <tr key={p.start}>
              <th scope="row" className="px-4 py-3 font-normal">
                {bucketLabel(p.start, bucket)}
              </th>
              <Td>{p.orders}</Td>
              <Td>{p.tickets}</Td>
              <Td>{formatPaise(p.grossPaise)}</Td>
            </tr>
          ))}
        </ScrollTable>
      </details>
    </div>
  );
}

const slotLabel = (start: string, end: string) => `${formatDateTime(start)} – ${formatTime(end)}`;

function TicketTypesPanel({ types }: { types: Dashboard['ticketTypes'] }) {
  return (
    <section aria-labelledby="types-heading">
      <h2 id="types-heading" className="text-xl font-bold">
        Ticket types
      </h2>
      {types.length === 0 ? (
        <p className="mt-2 text-gray-600">No ticket types yet.</p>
      ) : (
        <ScrollTable
          label="Ticket types"
          head={
            <>
              <Th>Ticket type</Th>
              <Th>Slot</Th>
              <Th right>Price</Th>
              <Th right>Sold</Th>
              <Th right>Held</Th>
              <Th right>Capacity</Th>
              <Th right>Sold (face value)</Th>
              <Th right>Waiting list</Th>
            </>
          }
        >
          {types.map((type) => (
            <tr key={type.id}>
              <th scope="row" className="px-4 py-3 font-semibold text-gray-900">
                {type.name}
                {!type.onSale && <span className="block text-xs font-normal text-gray-600">Not on sale</span>}
              </th>
              <td className="px-4 py-3">{slotLabel(type.slotStart, type.slotEnd)}</td>
              <Td>{formatPaise(type.pricePaise)}</Td>
              <Td>{type.sold}</Td>
              <Td>{type.held}</Td>
              <Td>{type.capacity}</Td>
              <Td>{formatPaise(type.soldFaceValuePaise)}</Td>
              <Td>
                {type.waitlistWaiting}
                {type.waitlistOffered > 0 && (
                  <span className="block text-xs text-gray-600">+{type.waitlistOffered} offered</span>
                )}
              </Td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

function SlotsPanel({ slots }: { slots: Dashboard['slots'] }) {
  return (
    <section aria-labelledby="slots-heading">
      <h2 id="slots-heading" className="text-xl font-bold">
        Slots
      </h2>
      {slots.length === 0 ? (
        <p className="mt-2 text-gray-600">No slots yet.</p>
      ) : (
        <ScrollTable
          label="Slots"
          head={
            <>
              <Th>Slot</Th>
              <Th right>Orders</Th>
              <Th right>Sold</Th>
              <Th right>Held</Th>
              <Th right>Capacity</Th>
              <Th right>Sold (face value)</Th>
            </>
          }
        >
          {slots.map((slot) => (
            <tr key={slot.id}>
              <th scope="row" className="px-4 py-3 font-semibold text-gray-900">
                {slotLabel(slot.startTime, slot.endTime)}
              </th>
              <Td>{slot.orders}</Td>
              <Td>{slot.sold}</Td>
              <Td>{slot.held}</Td>
              <Td>{slot.capacity}</Td>
              <Td>{formatPaise(slot.soldFaceValuePaise)}</Td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}
