import { createLazyRoute, Link } from '@tanstack/react-router';
import { formatBookingDate, formatTime } from '../../../shared/dates.ts';
import { AcceptButton, SignInToAccept } from '../../components/accept-by-link.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf, useCurrentUser } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/transfers/$token')({ component: TransferPage });

/**
 * The recipient's page: which show, from whom, to which address; accepting needs an account with that
 * address (the server refuses any other, and this page says so before they try).
 */
function TransferPage() {
  const { token } = Route.useParams();
  const me = useCurrentUser();
  const transfer = trpc.transfers.byToken.useQuery({ token });
  const utils = trpc.useUtils();
  const accept = trpc.transfers.accept.useMutation({
    onSuccess: async () => {
      await Promise.all([utils.transfers.byToken.invalidate({ token }), utils.bookings.mine.invalidate()]);
    },
  });
  if (transfer.isPending || me.isPending) return <LoadingText />;
  if (!transfer.data)
    return <NoticeText text={messageOf(transfer.error, 'This transfer link is invalid.')} />;
  const t = transfer.data;
  const here = `/transfers/${token}`;
  const bookingId = t.bookingId ?? accept.data?.bookingId ?? null;
  return (
    <section className="mx-auto w-full max-w-lg px-4 py-12">
      <div className="rounded-xl border border-gray-200 p-6 shadow-sm">
        <h1 className="text-2xl font-bold">A ticket for {t.eventName}</h1>
        <p className="mt-3 text-gray-700">
          <strong>{t.fromName}</strong> {t.status === 'accepted' ? 'gave' : 'is giving'} you their booking:
        </p>
        <dl className="mt-3 space-y-1 text-gray-900">
          <div>
            <dt className="sr-only">When</dt>
            <dd>
              {formatBookingDate(t.ticketSlot)} · {formatTime(t.ticketSlot)} - {formatTime(t.ticketSlotEnd)}
            </dd>
          </div>
          <div>
            <dt className="sr-only">Where</dt>
            <dd>{t.eventLocation}</dd>
          </div>
          <div>
            <dt className="sr-only">Tickets</dt>
            <dd className="font-medium">{t.tickets.map((l) => `${l.name} x ${l.quantity}`).join(', ')}</dd>
          </div>
        </dl>
        <p className="mt-3 text-gray-700">
          Sent to <strong>{t.toEmail}</strong>.
        </p>
        {bookingId ? (
          <p className="mt-5 rounded-md bg-green-50 p-3 font-semibold text-green-900" role="status">
            The ticket is yours.{' '}
            <Link to="/ticket/$bookingId" params={{ bookingId }} className="text-brand-700 underline">
              View your ticket
            </Link>
          </p>
        ) : t.status === 'cancelled' ? (
          <p className="mt-5 font-medium text-gray-900">The sender cancelled this transfer.</p>
        ) : t.status === 'accepted' ? (
          <p className="mt-5 font-medium text-gray-900">This transfer has already been accepted.</p>
        ) : !me.data ? (
          <div className="mt-6">
            <p className="text-gray-700">Sign in or create an account with {t.toEmail} to accept it.</p>
            <SignInToAccept redirect={here} />
          </div>
        ) : t.viewerIsRecipient === false ? (
          <p className="mt-5 rounded-md bg-amber-50 p-3 text-amber-900" role="alert">
            You are signed in as {me.data.email}. This ticket was sent to {t.toEmail}: sign out and sign in
            with that address to accept it.
          </p>
        ) : (
          <AcceptButton
            label="Accept ticket"
            pending={accept.isPending}
            error={accept.error}
            onAccept={() => accept.mutate({ token })}
          />
        )}
      </div>
    </section>
  );
}
