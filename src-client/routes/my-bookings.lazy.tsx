import { createLazyRoute, Link } from '@tanstack/react-router';
import { LineIcon } from '../components/line-icon.tsx';
import { TicketQr } from '../components/ticket-qr.tsx';
import { bookingDisplay, type OwnBooking, ticketIcsUrl, ticketPdfUrl } from '../lib/booking-display.ts';
import { trpc } from '../lib/trpc.ts';

export const Route = createLazyRoute('/my-bookings')({ component: MyBookingsPage });

function MyBookingsPage() {
  const bookings = trpc.bookings.mine.useQuery();

  return (
    <section className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold sm:text-3xl">My Bookings</h1>
      {bookings.isPending ? (
        <p role="status" className="py-16 text-center text-gray-600">
          Loading your bookings...
        </p>
      ) : bookings.isError ? (
        <div
          role="alert"
          className="mx-auto mt-10 max-w-md rounded-lg border border-red-200 bg-red-50 p-6 text-center"
        >
          <WarningIcon />
          <p className="mt-3 font-medium text-red-800">Failed to fetch bookings and events</p>
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="mt-4 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            Try Again
          </button>
        </div>
      ) : bookings.data.length === 0 ? (
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
        <ul className="mt-6 space-y-5">
          {bookings.data.map((booking) => (
            <li key={booking.id}>
              <BookingCard booking={booking} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function BookingCard({ booking }: { booking: OwnBooking }) {
  const show = bookingDisplay(booking);
  const cancelled = booking.status === 'cancelled';
  return (
    <article
      aria-labelledby={`booking-${booking.id}`}
      className="flex flex-col overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm sm:flex-row"
    >
      <img src={show.poster} alt="" className="h-44 w-full object-cover sm:h-auto sm:w-44" loading="lazy" />
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h2 id={`booking-${booking.id}`} className="text-lg font-bold">
          <Link to="/ticket/$bookingId" params={{ bookingId: booking.id }} className="hover:text-brand-700">
            {show.name}
          </Link>
          {cancelled && (
            <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 align-middle text-sm font-semibold text-red-800">
              Cancelled
            </span>
          )}
        </h2>
        <p className="text-gray-700">{show.location}</p>
        <p className="text-gray-700">
          <span>{show.date}</span>
          <span aria-hidden="true"> · </span>
          <span>{show.time}</span>
        </p>
        <p className="font-medium">{show.ticket}</p>
        <p className="mt-1 text-sm text-gray-600">
          Booking ID: <span className="font-mono text-gray-900">{booking.id}</span>
        </p>
        {cancelled ? (
          <p className="mt-3 text-sm text-gray-700">
            The organiser cancelled this booking. Your payment is refunded in full to your original payment
            method.
          </p>
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
            <Link
              to="/ticket/$bookingId"
              params={{ bookingId: booking.id }}
              className="rounded-md px-4 py-2 text-sm font-semibold text-brand-700 hover:underline"
            >
              View ticket
            </Link>
          </div>
        )}
      </div>
      {!cancelled && (
        <div className="flex items-center justify-center border-t border-dashed border-gray-300 p-4 sm:border-t-0 sm:border-l">
          <TicketQr token={booking.qrToken} bookingId={booking.id} size={144} />
        </div>
      )}
    </article>
  );
}

function WarningIcon() {
  return (
    <LineIcon className="mx-auto h-10 w-10 text-red-600">
      <path d="M12 3 2 21h20L12 3z" strokeLinejoin="round" />
      <path d="M12 10v5M12 18h.01" strokeLinecap="round" />
    </LineIcon>
  );
}
