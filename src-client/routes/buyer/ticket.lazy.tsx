import { createLazyRoute, Link } from '@tanstack/react-router';
import {
  CancelBookingSection,
  type CancelNotice,
  CancelNoticeRegion,
  useCancelNotice,
} from '../../components/cancel-booking.tsx';
import { LoadFailed, NotFound } from '../../components/status-screens.tsx';
import { TicketQr } from '../../components/ticket-qr.tsx';
import { bookingDisplay } from '../../lib/booking-display.ts';
import { trpc } from '../../lib/trpc.ts';
import { TicketLoading, type TicketSearch, ticketFailed } from './ticket.tsx';

export const Route = createLazyRoute('/_buyer/ticket/$bookingId')({ component: TicketPage });
export const WithoutIdRoute = createLazyRoute('/_buyer/ticket')({ component: TicketWithoutId });

const NO_ID = 'No bookingId provided in URL.';
const NO_LONGER_VALID = 'This ticket is no longer valid.';

function TicketPage() {
  const { bookingId } = Route.useParams();
  const { t: token } = Route.useSearch() as TicketSearch;
  const notice = useCancelNotice();
  return (
    <>
      {/* Above whatever the ticket shows: once cancelled it gives way to a message, this one stays. */}
      <CancelNoticeRegion notice={notice} className="mx-auto max-w-md px-4 pt-8" />
      <TicketView id={bookingId.trim()} token={token} notice={notice} />
    </>
  );
}

function TicketView({ id, token, notice }: { id: string; token?: string; notice: CancelNotice }) {
  const ticket = trpc.bookings.byId.useQuery({ bookingId: id, token }, { enabled: id !== '' });

  if (id === '') return <TicketWithoutId />;
  if (ticket.isPending) return <TicketLoading bookingId={id} />;
  if (ticket.isError) {
    if (ticket.error.data?.code !== 'NOT_FOUND')
      return <LoadFailed title="Ticket" message={ticketFailed(ticket.error)} />;
    return (
      <NotFound
        title="We couldn't find this ticket"
        text={`Ticket not found for bookingId: ${id}. Check the link, or find your tickets in My Bookings.`}
      >
        <Link
          to="/my-bookings"
          className="mx-2 mt-6 inline-block rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800"
        >
          My Bookings
        </Link>
      </NotFound>
    );
  }
  if (!ticket.data) return <TicketMessage text="No ticket data found." />;

  const booking = ticket.data;
  const show = bookingDisplay(booking);
  if (booking.status === 'cancelled') {
    // Cancelled here a moment ago: the notice above has said so, with the refund, and holds the focus;
    // a second status saying it again would be read out twice.
    if (notice.outcome?.bookingId === booking.id)
      return <p className="mx-auto max-w-xl px-4 py-16 text-center text-gray-700">{NO_LONGER_VALID}</p>;
    return (
      <TicketMessage
        text={
          booking.cancelReason === 'buyer'
            ? `You cancelled booking ${booking.id} (${show.name}); your refund goes back to your original payment method. ${NO_LONGER_VALID}`
            : `Booking ${booking.id} (${show.name}) was cancelled by the organiser and refunded in full. ${NO_LONGER_VALID}`
        }
      />
    );
  }
  return (
    <section className="mx-auto max-w-md px-4 py-8 print:max-w-lg print:p-0">
      <style>{PRINT_ONLY_THE_TICKET}</style>
      <article
        aria-labelledby="ticket-title"
        className="overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-md print:rounded-none print:border-2 print:border-gray-800 print:shadow-none print:break-inside-avoid"
      >
        <div className="bg-brand-600 px-5 py-3 text-white print:bg-white print:text-black">
          <p className="text-sm font-semibold tracking-wide uppercase">Jalsa e-ticket</p>
        </div>
        <div className="space-y-3 px-5 py-5">
          <h1 id="ticket-title" className="text-2xl font-bold">
            {show.name}
          </h1>
          <Field label="Venue" value={show.location} />
          <div>
            <Field label="Date and time" value={`${show.date}, ${show.time}`} />
            {show.movedFrom && (
              <p className="mt-1 text-sm font-medium text-amber-900">
                Moved from {show.movedFrom} by the organiser. This ticket is valid for the new date and time.
              </p>
            )}
          </div>
          <Field label="Ticket" value={show.ticket} />
          {booking.addOns.length > 0 && (
            <Field
              label="Add-ons (collect at the entrance)"
              value={booking.addOns.map((a) => (a.givenAt ? `${a.label} (collected)` : a.label)).join(', ')}
            />
          )}
          <Field label="Name" value={show.holder} />
          <Field label="Booking ID" value={booking.id} mono />
        </div>
        {booking.bookingQrAdmits && (
          <div className="flex flex-col items-center border-t border-dashed border-gray-300 px-5 py-5">
            <TicketQr token={booking.qrToken} bookingId={booking.id} size={224} />
            <p className="mt-2 text-center text-xs text-gray-600">
              Show this QR code at the entrance with a government ID.
            </p>
          </div>
        )}
        {/* One QR per person where the organiser asked for it (ADR 0046): each is scanned on its own. */}
        {booking.attendeeTickets.map((a) => (
          <div
            key={`${a.ticketTypeId}-${a.position}`}
            className="flex flex-col items-center border-t border-dashed border-gray-300 px-5 py-5 print:break-inside-avoid"
            data-testid="attendee-ticket"
          >
            <p className="mb-2 text-center font-semibold">{a.label}</p>
            <TicketQr token={a.qrToken} bookingId={booking.id} size={224} />
            <p className="mt-2 text-center text-xs text-gray-600">
              {a.typeName ? `${a.typeName}. ` : ''}This QR admits this person only. Show it with a government
              ID.
            </p>
          </div>
        ))}
      </article>
      <button
        type="button"
        onClick={() => window.print()}
        className="mt-6 w-full rounded-md bg-brand-600 px-4 py-3 font-semibold text-white hover:bg-brand-700 print:hidden"
      >
        Print / Download Ticket
      </button>
      <div className="print:hidden">
        {/* Opened by a box-office link without an account: nothing to cancel from (ADR 0042). */}
        {!token && <CancelBookingSection bookingId={booking.id} eventName={show.name} notice={notice} />}
      </div>
    </section>
  );
}

// The page's header and footer belong to the app shell; printing should give one clean ticket only.
const PRINT_ONLY_THE_TICKET = `@media print {
  body > #root header, body > #root footer, body > #root a[href="#main"] { display: none !important; }
  @page { margin: 12mm; }
}`;

function Field({ label, value, mono = false }: { label: string; value: string; mono?: boolean }) {
  return (
    <div>
      <p className="text-xs font-semibold tracking-wide text-gray-500 uppercase">{label}</p>
      <p className={mono ? 'font-mono text-sm break-all' : 'font-medium'}>{value}</p>
    </div>
  );
}

/** The spec's message for a ticket link without its booking id, and where the buyer's tickets are. */
function TicketWithoutId() {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center text-gray-700">
      <p role="status">{NO_ID}</p>
      <p className="mt-2">
        Your tickets are listed in{' '}
        <Link to="/my-bookings" className="font-medium text-brand-700 underline">
          My Bookings
        </Link>
        .
      </p>
    </div>
  );
}

function TicketMessage({ text }: { text: string }) {
  return (
    <p role="status" className="mx-auto max-w-xl px-4 py-16 text-center text-gray-700">
      {text}
    </p>
  );
}
