import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { formatInIndia } from '../../../shared/dates.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import { Pager } from '../../components/console/pager.tsx';
import { ScrollTable, Td, Th } from '../../components/console/scroll-table.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/organiser/payouts')({ component: PayoutsPage });

type Statement = RouterOutputs['console']['monthlyPayoutStatement'];
type Row = Statement['total'];

/** 'yyyy-MM' as 'November 2026' (mid-month, so no time zone moves it). */
const monthLabel = (month: string) => formatInIndia(`${month}-15T06:30:00.000Z`, 'MMMM yyyy');

/**
 * The organiser's payout statement of one month (India time): a row per event with a sale or a refund
 * in it, each that event's own statement for the month (the Sales page's figures), and
 * their total; the CSV has every row. The month is in the URL, so a statement can be bookmarked.
 */
function PayoutsPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: '/organiser/payouts' });
  const thisMonth = formatInIndia(new Date(), 'yyyy-MM');
  const month = search.month ?? thisMonth;
  const page = search.page ?? 1;
  const statement = trpc.console.monthlyPayoutStatement.useQuery({ month, page }, { retry: false });
  return (
    // Wider than the console's other pages: a dozen figures per event should fit a laptop's screen.
    <section className="mx-auto w-full max-w-7xl space-y-6 px-4 py-8">
      <div>
        <Link to="/organiser" className="text-sm font-semibold text-brand-700 underline">
          Organiser console
        </Link>
        <h1 className="mt-2 text-3xl font-extrabold text-gray-900">Payouts by month</h1>
        <p className="mt-2 text-gray-700">
          Every event of yours with a sale or a refund in the month (India time). Each row is that event's
          payout statement for the month, as on its Sales page; the total adds them up.
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-semibold text-gray-700">
          Month
          <input
            type="month"
            value={month}
            max={thisMonth}
            onChange={(e) => {
              if (e.target.value) navigate({ search: { month: e.target.value } });
            }}
            className="mt-1 block rounded-md border border-gray-300 px-3 py-2 font-normal"
          />
        </label>
        {/* A plain link: the browser downloads the file with the session cookie. */}
        <a
          href={`/api/organiser/payout.csv?month=${encodeURIComponent(month)}`}
          download
          className="rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50"
        >
          Download CSV
        </a>
      </div>
      {statement.isPending ? (
        <LoadingText />
      ) : statement.error ? (
        <NoticeText text={messageOf(statement.error)} />
      ) : (
        <MonthTable
          statement={statement.data}
          onPage={(next) => navigate({ search: { month, ...(next > 1 ? { page: next } : {}) } })}
        />
      )}
    </section>
  );
}

function MonthTable({ statement: s, onPage }: { statement: Statement; onPage: (page: number) => void }) {
  if (s.eventCount === 0) {
    return <p className="text-gray-600">No sales or refunds in {monthLabel(s.month)}.</p>;
  }
  return (
    <section aria-labelledby="month-heading">
      <h2 id="month-heading" className="text-xl font-bold">
        {monthLabel(s.month)}: {formatPaiseExact(s.total.payablePaise)} payable to you
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        {s.eventCount} {s.eventCount === 1 ? 'event' : 'events'}, {s.total.orders}{' '}
        {s.total.orders === 1 ? 'order' : 'orders'}
      </p>
      <ScrollTable
        label={`Payouts of ${monthLabel(s.month)}`}
        minWidth="min-w-[1200px]"
        head={
          <>
            <Th>Event</Th>
            <Th right>Orders</Th>
            <Th right>Ticket revenue</Th>
            <Th right>Add-on revenue</Th>
            <Th right>GST on tickets and add-ons</Th>
            <Th right>Platform fees (not yours)</Th>
            <Th right>Refunds</Th>
            <Th right>Refunds from your revenue</Th>
            <Th right>Credit notes</Th>
            <Th right>Discounts given</Th>
            <Th right>Comps</Th>
            <Th right>Collected at the door</Th>
            <Th right>Payable to you</Th>
          </>
        }
      >
        {s.events.map((event) => (
          <tr key={event.eventId}>
            <th scope="row" className="min-w-44 px-4 py-3 font-semibold text-gray-900">
              <Link
                to="/organiser/events/$eventId/sales"
                params={{ eventId: event.eventId }}
                className="text-brand-700 underline"
              >
                {event.eventName}
              </Link>
            </th>
            <Figures row={event} />
          </tr>
        ))}
        <tr className="bg-gray-50 font-bold">
          <th scope="row" className="px-4 py-3 text-gray-900">
            Total, {s.eventCount} {s.eventCount === 1 ? 'event' : 'events'}
          </th>
          <Figures row={s.total} />
        </tr>
      </ScrollTable>
      <Pager
        label="Payout statement pages"
        position={`Page ${s.page} of ${s.pageCount}`}
        hasPrevious={s.page > 1}
        hasNext={s.page < s.pageCount}
        onPrevious={() => onPage(s.page - 1)}
        onNext={() => onPage(s.page + 1)}
      />
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm text-gray-700 sm:grid-cols-[14rem_1fr]">
        <dt className="font-semibold">Platform fees</dt>
        <dd>The convenience fees buyers paid and the GST on them: the platform's, not in your payable.</dd>
        <dt className="font-semibold">GST on tickets and add-ons</dt>
        <dd>What your invoices charged, inside the two revenues: yours to pay to the government.</dd>
        <dt className="font-semibold">Refunds from your revenue</dt>
        <dd>
          The part of the refunds that came out of tickets and add-ons; the rest was the platform's fee.
        </dd>
        <dt className="font-semibold">Payable to you</dt>
        <dd>
          Ticket revenue + add-on revenue − refunds from your revenue − collected at the door (money you
          already hold). Comps are ₹0; refunds count in the month they were made.
        </dd>
      </dl>
    </section>
  );
}

function Figures({ row }: { row: Row }) {
  return (
    <>
      <Td>{row.orders}</Td>
      <Td>{formatPaiseExact(row.ticketRevenuePaise)}</Td>
      <Td>{formatPaiseExact(row.addOnRevenuePaise)}</Td>
      <Td>{formatPaiseExact(row.ticketGstPaise)}</Td>
      <Td>
        {formatPaiseExact(row.convenienceFeesPaise)}
        <span className="block text-xs font-normal text-gray-600">
          + {formatPaiseExact(row.feeGstPaise)} GST
        </span>
      </Td>
      <Td>
        {formatPaiseExact(row.refundsPaise)}
        {row.refundsPendingPaise > 0 && (
          <span className="block text-xs font-normal text-gray-600">
            {formatPaiseExact(row.refundsPendingPaise)} pending
          </span>
        )}
      </Td>
      <Td>{formatPaiseExact(row.ticketRefundsPaise)}</Td>
      <Td>
        {row.creditNotes}
        {row.creditNotes > 0 && (
          <span className="block text-xs font-normal text-gray-600">
            {formatPaiseExact(row.creditNotesPaise)}
          </span>
        )}
      </Td>
      <Td>{formatPaiseExact(row.discountsPaise)}</Td>
      <Td>{row.comps}</Td>
      <Td>{formatPaiseExact(row.collectedAtDoorPaise)}</Td>
      <Td>{formatPaiseExact(row.payablePaise)}</Td>
    </>
  );
}
