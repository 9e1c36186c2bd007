import { createLazyRoute, Link } from '@tanstack/react-router';
import { useId, useMemo } from 'react';
import { formatBookingDate, formatTime } from '../../../shared/dates.ts';
import { formatPaise } from '../../../shared/money.ts';
import { AttendeeNamesSection } from '../../components/attendee-names.tsx';
import { BookingInvoiceLinks } from '../../components/booking-invoices.tsx';
import {
  CancelBookingSection,
  type CancelNotice,
  CancelNoticeRegion,
  useCancelNotice,
} from '../../components/cancel-booking.tsx';
import { LoadFailed, LoadingText } from '../../components/status-screens.tsx';
import { TicketQr } from '../../components/ticket-qr.tsx';
import { TransferBookingSection } from '../../components/transfer-booking.tsx';
import { WaitingListEntries } from '../../components/waiting-list-entries.tsx';
import {
  bookingDisplay,
  type OwnBooking,
  splitByEventDate,
  ticketIcsUrl,
  ticketPdfUrl,
} from '../../lib/booking-display.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { BOOKINGS_FAILED } from './my-bookings.tsx';

export const Route = createLazyRoute('/_buyer/_account/my-bookings')({ component: MyBookingsPage });

function MyBookingsPage() {
  const bookings = trpc.bookings.mine.useQuery();
  const sent = trpc.transfers.sent.useQuery();
  const lists = useMemo(() => splitByEventDate(bookings.data ?? [], new Date()), [bookings.data]);
  const notice = useCancelNotice();

  if (bookings.isError) return <LoadFailed title="My Bookings" message={BOOKINGS_FAILED} />;
  return (
    <section className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold sm:text-3xl">My Bookings</h1>
      {/* Above the lists: a cancelled booking's card changes under it, the message stays. */}
      <CancelNoticeRegion notice={notice} className="mt-4" />
      <WaitingListEntries />
      {bookings.isPending ? (
        <LoadingText text="Loading your bookings..." />
      ) : bookings.data.length === 0 && !sent.data?.length ? (
        <div className="mx-auto mt-10 max-w-md text-center">
          <h2 className="text-xl font-semibold">No Bookings Yet!</h2>
          <p className="mt-2 text-gray-600">
            You haven't booked any events yet. Your bookings will appear here once you book your first event.
          </p>
          <Link
            to="/"
            className="mt-6 inline-block rounded-md bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700"
          >
            Browse Events
          </Link>
        </div>
      ) : (
        <>
          <BookingList
            title="Upcoming"
            bookings={lists.upcoming}
            empty="No upcoming events. Time to book one?"
            upcoming
            notice={notice}
          />
          <BookingList title="Past" bookings={lists.past} notice={notice} />
          <TransferredList transfers={sent.data ?? []} />
        </>
      )}
    </section>
  );
}

/** One of My Bookings' lists; 'Past' is left out when there is nothing in it. */
function BookingList({
  title,
  bookings,
  empty,
  upcoming = false,
  notice,
}: {
  title: string;
  bookings: OwnBooking[];
  empty?: string;
  upcoming?: boolean;
  notice: CancelNotice;
}) {
  const headingId = useId();
  if (bookings.length === 0 && !empty) return null;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-bold text-gray-900">
        {title} <span className="text-base font-normal text-gray-600">({bookings.length})</span>
      </h2>
      {bookings.length === 0 ? (
        <p className="mt-3 text-gray-600">
          {empty}{' '}
          <Link to="/" className="font-semibold text-brand-700 underline">
            Browse Events
          </Link>
        </p>
      ) : (
        <ul className="mt-4 space-y-5">
          {bookings.map((booking) => (
            <li key={booking.id}>
              <BookingCard booking={booking} upcoming={upcoming} notice={notice} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function BookingCard({
  booking,
  upcoming,
  notice,
}: {
  booking: OwnBooking;
  upcoming: boolean;
  notice: CancelNotice;
}) {
  const show = bookingDisplay(booking);
  const cancelled = booking.status === 'cancelled';
  return (
    <article
      aria-labelledby={`booking-${booking.id}`}
      className="flex flex-col overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm sm:flex-row"
    >
      <img src={show.poster} alt="" className="h-44 w-full object-cover sm:h-auto sm:w-44" loading="lazy" />
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h3 id={`booking-${booking.id}`} className="text-lg font-bold">
          <Link to="/ticket/$bookingId" params={{ bookingId: booking.id }} className="hover:text-brand-700">
            {show.name}
          </Link>
          {cancelled && (
            <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 align-middle text-sm font-semibold text-red-800">
              Cancelled
            </span>
          )}
        </h3>
        <p className="text-gray-700">{show.location}</p>
        <p className="text-gray-700">
          <span>{show.date}</span>
          <span aria-hidden="true"> · </span>
          <span>{show.time}</span>
        </p>
        {show.movedFrom && !cancelled && (
          <p className="text-sm font-medium text-amber-900">Moved from {show.movedFrom} by the organiser</p>
        )}
        <p className="font-medium">{show.ticket}</p>
        {booking.addOns.length > 0 && (
          <p className="text-gray-700">Add-ons: {booking.addOns.map((a) => a.label).join(', ')}</p>
        )}
        <p className="text-gray-700">
          Amount paid:{' '}
          <span className="font-semibold text-gray-900">{formatPaise(booking.totalAmountPaise)}</span>
        </p>
        <p className="mt-1 text-sm text-gray-600">
          Booking ID: <span className="font-mono text-gray-900">{booking.id}</span>
        </p>
        {cancelled ? (
          <>
            <p className="mt-3 text-sm text-gray-700">
              {booking.cancelReason === 'buyer'
                ? 'You cancelled this booking. Your refund goes back to your original payment method, as the event’s refund policy allows.'
                : 'The organiser cancelled this booking. Your payment is refunded in full to your original payment method.'}
            </p>
            {/* The invoice and its credit note stay the payer's to download (issue 36); the server answers
                "not found" to anyone else, and the links then show nothing. */}
            <div className="mt-3 flex flex-wrap gap-2">
              <BookingInvoiceLinks bookingId={booking.id} />
            </div>
          </>
        ) : (
          <div className="mt-3 flex flex-wrap gap-2">
            <a
              href={ticketPdfUrl(booking.id)}
              download
              className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            >
              Download Ticket
            </a>
            <a
              href={ticketIcsUrl(booking.id)}
              download
              className="rounded-md border border-gray-300 px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50"
            >
              Add to calendar
            </a>
            <BookingInvoiceLinks bookingId={booking.id} />
            <Link
              to="/ticket/$bookingId"
              params={{ bookingId: booking.id }}
              className="rounded-md px-4 py-2 text-sm font-semibold text-brand-700 hover:underline"
            >
              View ticket
            </Link>
          </div>
        )}
        {upcoming && !cancelled && <AttendeeNamesSection bookingId={booking.id} />}
        {upcoming && !cancelled && <TransferBookingSection bookingId={booking.id} eventName={show.name} />}
        {upcoming && !cancelled && (
          <CancelBookingSection
            bookingId={booking.id}
            eventName={show.name}
            lines={booking.ticketTypes}
            notice={notice}
          />
        )}
      </div>
      {!cancelled && (
        <div className="flex items-center justify-center border-t border-dashed border-gray-300 p-4 sm:border-t-0 sm:border-l">
          {booking.bookingQrAdmits ? (
            <TicketQr token={booking.qrToken} bookingId={booking.id} size={144} />
          ) : (
            // Each person has their own QR (ADR 0046): they are on the ticket page, one per person.
            <p className="max-w-36 text-center text-sm text-gray-700">
              One QR per person: {booking.attendeeTickets.length} on the ticket page.
            </p>
          )}
        </div>
      )}
    </article>
  );
}

type SentTransfer = RouterOutputs['transfers']['sent'][number];

/** Bookings the buyer gave away: no QR (the recipient holds the new one); the invoice stays with the payer. */
function TransferredList({ transfers }: { transfers: SentTransfer[] }) {
  const headingId = useId();
  if (transfers.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-bold text-gray-900">
        Transferred <span className="text-base font-normal text-gray-600">({transfers.length})</span>
      </h2>
      <ul className="mt-4 space-y-5">
        {transfers.map((t) => (
          <li key={t.transferId}>
            <article className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
              <h3 className="text-lg font-bold">
                {t.eventName || 'Event'}
                <span className="ml-2 rounded-full bg-gray-200 px-2 py-0.5 align-middle text-sm font-semibold text-gray-800">
                  Transferred
                </span>
              </h3>
              <p className="text-gray-700">{t.eventLocation}</p>
              <p className="text-gray-700">
                {formatBookingDate(t.ticketSlot)} · {formatTime(t.ticketSlot)} - {formatTime(t.ticketSlotEnd)}
              </p>
              <p className="mt-1 text-gray-900">
                Given to <strong>{t.toName}</strong> ({t.toEmail})
                {t.acceptedAt ? `, accepted ${formatBookingDate(t.acceptedAt)}` : ''}. Your QR code no longer
                works.
              </p>
              <p className="mt-1 text-sm text-gray-600">
                Booking ID: <span className="font-mono text-gray-900">{t.bookingId}</span>
              </p>
              {t.paidBySender && (
                <div className="mt-3 flex flex-wrap gap-2">
                  <BookingInvoiceLinks bookingId={t.bookingId} />
                </div>
              )}
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}
