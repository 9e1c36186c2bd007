import { createLazyRoute, Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { formatDateTime, formatDateWithTimeRange } from '../../../shared/dates.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import {
  admissionTaxOf,
  FEE_TAX_NOT_CHARGED,
  feeTaxLabel,
  TICKET_GST_LABEL,
} from '../../../shared/pricing.ts';
import { BookingAnswersList } from '../../components/booking-answers-list.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { refreshAfterRefund } from '../../components/console/refresh-after-refund.ts';
import { PartRefunds, RefundPartForm } from '../../components/console/refund-part-form.tsx';
import { ScrollTable, Td, Th } from '../../components/console/scroll-table.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/_event/organiser/events/$eventId/bookings/$bookingId')({
  component: BookingPage,
});

type Booking = RouterOutputs['eventBookings']['booking'];

function BookingPage() {
  const { eventId, bookingId } = Route.useParams();
  const booking = trpc.eventBookings.booking.useQuery({ eventId, bookingId });
  // Who may see it was decided by the event's layout (organiser-booking.tsx).
  if (booking.isPending) return <LoadingText />;
  if (!booking.data) return <NoticeText text={messageOf(booking.error, 'Booking not found')} />;
  return <BookingDetails booking={booking.data} />;
}

const at = (instant: string) => `${formatDateTime(instant)} (India time)`;

function BookingDetails({ booking }: { booking: Booking }) {
  const cancelled = booking.status === 'cancelled';
  // GST added on top of tax-exclusive prices (the add-ons' own GST is inside their amounts).
  const ticketGstPaise = admissionTaxOf(booking.amounts);
  return (
    <section className="mx-auto w-full max-w-3xl space-y-8 px-4 py-8">
      <div>
        <Link
          to="/organiser/events/$eventId/edit"
          params={{ eventId: booking.eventId }}
          className="text-sm font-semibold text-brand-700 underline"
        >
          {booking.eventName}
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">
            Booking <span className="font-mono">{booking.id}</span>
          </h1>
          <StatusBadge cancelled={cancelled} />
        </div>
        <p className="mt-1 text-gray-700">{formatDateWithTimeRange(booking.slotStart, booking.slotEnd)}</p>
        {booking.cancelledAt && <p className="mt-1 text-gray-700">Cancelled {at(booking.cancelledAt)}</p>}
      </div>

      <Panel title="Buyer" id="buyer-heading">
        <Facts
          rows={[
            ['Name', booking.buyer.name],
            [
              'E-mail',
              <a key="email" href={`mailto:${booking.buyer.email}`}>
                {booking.buyer.email}
              </a>,
            ],
            [
              'Mobile',
              <a key="phone" href={`tel:${booking.buyer.phone.replace(/[^+\d]/g, '')}`}>
                {booking.buyer.phone}
              </a>,
            ],
            ['State', booking.buyer.state],
          ]}
        />
      </Panel>

      <Panel title="Tickets and payment" id="payment-heading">
        <ScrollTable
          label="Tickets"
          className=""
          minWidth="min-w-[320px]"
          head={
            <>
              <Th>Ticket</Th>
              <Th right>Qty</Th>
              <Th right>Amount</Th>
            </>
          }
        >
          {booking.lines.map((l) => (
            <tr key={l.name}>
              <td className="px-4 py-3">{l.name}</td>
              <Td>{l.quantity}</Td>
              <Td>{formatPaiseExact(l.pricePaise * l.quantity)}</Td>
            </tr>
          ))}
          {booking.addOns.map((a) => (
            <tr key={a.id}>
              <td className="px-4 py-3">{a.label}</td>
              <Td>add-on</Td>
              <Td>{formatPaiseExact(a.totalPaise)}</Td>
            </tr>
          ))}
        </ScrollTable>
        <Facts
          rows={[
            ...(booking.discount
              ? [
                  [`Discount (${booking.discount.code})`, `−${formatPaiseExact(booking.discount.paise)}`] as [
                    string,
                    string,
                  ],
                ]
              : []),
            ['Subtotal', formatPaiseExact(booking.amounts.subtotalPaise)],
            ...(booking.amounts.addOnsPaise > 0
              ? [['Add-ons', formatPaiseExact(booking.amounts.addOnsPaise)] as [string, string]]
              : []),
            ...(ticketGstPaise > 0
              ? [[TICKET_GST_LABEL, formatPaiseExact(ticketGstPaise)] as [string, string]]
              : []),
            ['Convenience fee', formatPaiseExact(booking.amounts.feePaise)],
            booking.amounts.igstPaise > 0 || booking.amounts.feePaise === 0
              ? [feeTaxLabel(booking.feeTaxSplit), formatPaiseExact(booking.amounts.igstPaise)]
              : [FEE_TAX_NOT_CHARGED.label, FEE_TAX_NOT_CHARGED.value],
            ['Total paid', <strong key="total">{formatPaiseExact(booking.amounts.totalPaise)}</strong>],
            [
              'Payment ID',
              <span key="payment" className="font-mono break-all">
                {booking.paymentId}
              </span>,
            ],
            ['Booked', at(booking.bookedAt)],
          ]}
        />
      </Panel>

      <Panel title="Refund" id="refund-heading">
        <RefundState refund={booking.refund} partRefunded={booking.partRefunds.parts.length > 0} />
        <PartRefunds booking={booking} />
      </Panel>

      <Panel title="Check-ins" id="checkins-heading">
        <p className="text-sm text-gray-700">
          {booking.checkIns.checkedIn} of {booking.checkIns.allowed} people checked in
        </p>
        {booking.checkIns.entries.length === 0 ? (
          <p className="mt-1 text-sm text-gray-600">Nobody has checked in on this booking yet.</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {booking.checkIns.entries.map((e) => (
              <li key={`${e.scannedAt}-${e.kind}-${e.gate}`}>
                {e.kind === 'undo' ? 'Undone: ' : ''}
                {e.persons} {e.persons === 1 ? 'person' : 'people'} · {e.gate} · {at(e.scannedAt)}
                {e.staffName ? ` · ${e.staffName}` : ''}
                {e.offline ? ' · offline scan' : ''}
                {e.excess > 0 ? ` · double entry (${e.excess} over)` : ''}
                {e.reason ? ` · ${e.reason}` : ''}
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <Panel title="Attendees and answers" id="answers-heading">
        <BookingAnswersList answers={booking.answers} />
      </Panel>

      <Panel title="Order history" id="history-heading">
        <OrderHistory history={booking.history} />
      </Panel>

      {!cancelled && <Actions booking={booking} />}
      {!cancelled && booking.partRefunds.refundableLeft.totalPaise > 0 && (
        <RefundPartForm booking={booking} />
      )}
    </section>
  );
}

/** Every change to the booking, oldest first, with who made it and when: a record, never editable. */
function OrderHistory({ history }: { history: Booking['history'] }) {
  if (history.length === 0)
    return (
      <p className="text-sm text-gray-600">
        Nothing was recorded for this booking (booked before the history began).
      </p>
    );
  return (
    <ol className="space-y-2 text-sm">
      {history.map((h, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is append-only, so a position never changes its entry.
        <li key={i} className="border-l-2 border-gray-200 pl-3">
          <p className="font-semibold text-gray-900">{historyText(h)}</p>
          <p className="text-gray-600">
            {whoDidIt(h)} · {at(h.at)}
          </p>
        </li>
      ))}
    </ol>
  );
}

type HistoryEntry = Booking['history'][number];

const ACTORS: Record<HistoryEntry['actor'], string> = {
  buyer: 'Buyer',
  organiser: 'Organiser team',
  gate: 'Gate staff',
  system: 'Jalsa',
};

function whoDidIt(h: HistoryEntry): string {
  return h.actorName ? `${h.actorName} (${ACTORS[h.actor].toLowerCase()})` : ACTORS[h.actor];
}

const CANCEL_REASONS: Record<string, string> = {
  organiser: 'by the organiser',
  buyer: 'by the buyer',
  slot_cancelled: 'because the show was cancelled',
  event_cancelled: 'because the event was cancelled',
};

function historyText(h: HistoryEntry): string {
  const d = h.details;
  const paise = (v: unknown) => formatPaiseExact(typeof v === 'number' ? v : 0);
  const people = (v: unknown) => `${v} ${v === 1 ? 'person' : 'people'}`;
  switch (h.kind) {
    case 'confirmed':
      return `Booked and paid ${paise(d.totalPaise)}${d.discountCode ? `; code ${d.discountCode} applied, ${paise(d.discountPaise)} off` : ''}`;
    case 'cancelled':
      return `Cancelled ${CANCEL_REASONS[String(d.reason)] ?? ''}${
        typeof d.refundPaise === 'number' && d.refundPaise > 0
          ? `, refund of ${paise(d.refundPaise)} started`
          : ''
      }`;
    case 'refund_issued':
      return `${d.part ? 'Part refund' : 'Refund'} of ${paise(d.amountPaise)} issued`;
    case 'partly_refunded':
      return `Part refund of ${paise(d.amountPaise)}${d.ticketsCancelled ? `, ${d.ticketsCancelled} cancelled` : ''}: “${d.reason}”`;
    case 'transfer_offered':
      return `Transfer offered to ${d.toName} (${d.toEmail})`;
    case 'transfer_cancelled':
      return 'Transfer offer taken back';
    case 'transfer_accepted':
      return `Transferred from ${d.fromName} to ${d.toName}`;
    case 'checked_in':
      return `Checked in: ${people(d.persons)} at ${d.gate}${d.offline ? ' (offline scan)' : ''}`;
    case 'check_in_undone':
      return `Check-in undone: ${people(d.persons)} at ${d.gate}, because “${d.reason}”`;
    case 'rescheduled':
      return `Show moved from ${formatDateTime(String(d.fromStart))} to ${formatDateTime(String(d.toStart))}`;
    case 'gstin_added':
      return `GSTIN ${d.gstin} added; invoice re-issued`;
    case 'attendee_name_corrected':
      return `Name of ${d.ticketType} ticket ${d.position} changed${d.from ? ` from ${d.from}` : ''} to ${d.to}`;
    case 'add_on_given':
      return `Handed over: ${d.quantity} × ${d.name} at ${d.gate}`;
  }
}

function Actions({ booking }: { booking: Booking }) {
  const utils = trpc.useUtils();
  const input = { eventId: booking.eventId, bookingId: booking.id };
  const resend = trpc.eventBookings.resendTicket.useMutation();
  const cancel = trpc.eventBookings.cancel.useMutation({
    onSettled: () => refreshAfterRefund(utils, input),
  });
  const [confirming, setConfirming] = useState(false);
  // Anyone ever admitted with it (an undone admission too): a refund needs the organiser's explicit choice.
  const used = booking.usedAtGate;
  return (
    <section aria-labelledby="actions-heading" className="space-y-3">
      <h2 id="actions-heading" className="text-xl font-bold">
        Actions
      </h2>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          disabled={resend.isPending}
          onClick={() => resend.mutate(input)}
          className="rounded-md border border-brand-600 px-4 py-2 font-semibold text-brand-700 disabled:opacity-60"
        >
          {resend.isPending ? 'Sending...' : 'Resend ticket e-mail'}
        </button>
        <button
          type="button"
          onClick={() => {
            cancel.reset();
            setConfirming(true);
          }}
          className="rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800"
        >
          {used ? 'Cancel and refund anyway…' : 'Cancel booking'}
        </button>
      </div>
      {resend.isSuccess && (
        <p role="status" className="text-sm text-green-800">
          Ticket e-mail sent to {resend.data.sentTo}.
        </p>
      )}
      {resend.error && (
        <p role="alert" className="text-sm font-semibold text-red-800">
          {messageOf(resend.error, 'The ticket could not be sent. Please try again.')}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={used ? 'Refund a used booking?' : 'Cancel this booking?'}
        description={
          used ? (
            // Issue 35: the server refuses this cancel without the organiser's explicit choice.
            <>
              People have already been admitted with this booking at the gate. If you cancel it anyway,{' '}
              {booking.buyer.name} is refunded {formatPaiseExact(booking.amounts.totalPaise)} in full, but its{' '}
              {booking.ticketCount} {booking.ticketCount === 1 ? 'seat does' : 'seats do'} not go back on
              sale. The buyer is told by e-mail. This cannot be undone.
            </>
          ) : (
            <>
              {booking.buyer.name}'s {booking.ticketCount} {booking.ticketCount === 1 ? 'ticket' : 'tickets'}{' '}
              will be cancelled, the seats go back on sale, and {formatPaiseExact(booking.amounts.totalPaise)}{' '}
              is refunded in full. The buyer is told by e-mail. This cannot be undone.
            </>
          )
        }
        confirmLabel={used ? 'Refund anyway' : 'Cancel and refund'}
        busyLabel="Cancelling..."
        busy={cancel.isPending}
        error={cancel.error ? messageOf(cancel.error, 'The booking could not be cancelled.') : null}
        onConfirm={() =>
          cancel.mutate(used ? { ...input, refundUsedTickets: true } : input, {
            onSuccess: () => setConfirming(false),
          })
        }
      />
    </section>
  );
}

function RefundState({ refund, partRefunded }: { refund: Booking['refund']; partRefunded: boolean }) {
  // With part refunds listed below, "No refund." would contradict them: there is just no whole one.
  if (!refund) return partRefunded ? null : <p className="text-sm text-gray-700">No refund.</p>;
  if (refund.status === 'processed') {
    return (
      <p className="text-sm text-gray-800">
        <strong className="text-green-800">Refunded</strong> {formatPaiseExact(refund.amountPaise)}{' '}
        {refund.gatewayRefundId && (
          <span className="font-mono text-gray-600">({refund.gatewayRefundId})</span>
        )}
      </p>
    );
  }
  return (
    <div className="text-sm text-gray-800">
      <p>
        <strong className={refund.lastError ? 'text-red-800' : 'text-amber-800'}>
          {refund.lastError ? 'Refund failed, retrying' : 'Refund pending'}
        </strong>{' '}
        {formatPaiseExact(refund.amountPaise)} · {refund.attempts}{' '}
        {refund.attempts === 1 ? 'attempt' : 'attempts'}
      </p>
      {refund.lastError && <p className="mt-1 text-red-800">Last error: {refund.lastError}</p>}
    </div>
  );
}

function StatusBadge({ cancelled }: { cancelled: boolean }) {
  return (
    <span
      className={`rounded-full px-3 py-1 text-sm font-semibold ${cancelled ? 'bg-red-100 text-red-800' : 'bg-green-100 text-green-800'}`}
    >
      {cancelled ? 'Cancelled' : 'Confirmed'}
    </span>
  );
}

function Panel({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-gray-200 bg-white p-4">
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      <div className="mt-2">{children}</div>
    </section>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="mt-2 grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-gray-600">{label}</dt>
          <dd className="min-w-0 break-words text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
