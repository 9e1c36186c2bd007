import { zodResolver } from '@hookform/resolvers/zod';
import { createLazyRoute } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { CheckInInput } from '../../shared/bookings-schemas.ts';
import { formatInIndia } from '../../shared/dates.ts';
import { type RouterOutputs, trpc } from '../lib/trpc.ts';

export const Route = createLazyRoute('/check-in')({ component: CheckInPage });

type CheckInResult = RouterOutputs['bookings']['checkIn'];

function CheckInPage() {
  const canCheckIn = trpc.bookings.canCheckIn.useQuery();
  return (
    <section className="mx-auto max-w-lg px-4 py-8">
      <h1 className="text-2xl font-bold">Ticket check-in</h1>
      {canCheckIn.isPending ? (
        <p role="status" className="mt-6 text-gray-600">
          Loading...
        </p>
      ) : canCheckIn.data ? (
        <CheckInForm />
      ) : (
        <p role="alert" className="mt-6 text-gray-700">
          Only gate staff can check tickets in.
        </p>
      )}
    </section>
  );
}

function CheckInForm() {
  const checkIn = trpc.bookings.checkIn.useMutation();
  const form = useForm({ resolver: zodResolver(CheckInInput), defaultValues: { token: '', persons: 1 } });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) => {
    // Ready for the next person at once: a handheld scanner types the next code followed by Enter.
    form.reset({ token: '', persons: 1 });
    form.setFocus('token');
    checkIn.mutate(values);
  });

  return (
    <>
      <p className="mt-2 text-sm text-gray-600">
        Scan the QR code on the ticket with a scanner, or paste the code it contains, then press Check in.
      </p>
      <form onSubmit={submit} noValidate className="mt-6 space-y-4">
        <div>
          <label htmlFor="token" className="block text-sm font-semibold">
            Ticket code
          </label>
          <input
            id="token"
            autoFocus
            autoComplete="off"
            spellCheck={false}
            aria-invalid={errors.token ? true : undefined}
            aria-describedby={errors.token ? 'token-error' : undefined}
            className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2 font-mono text-sm"
            {...form.register('token')}
          />
          {errors.token && (
            <p id="token-error" className="mt-1 text-sm text-red-700">
              {errors.token.message}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="persons" className="block text-sm font-semibold">
            People entering
          </label>
          <input
            id="persons"
            type="number"
            min={1}
            inputMode="numeric"
            aria-invalid={errors.persons ? true : undefined}
            aria-describedby={errors.persons ? 'persons-error' : undefined}
            className="mt-1 w-28 rounded-md border border-gray-300 px-3 py-2"
            {...form.register('persons', { valueAsNumber: true })}
          />
          {errors.persons && (
            <p id="persons-error" className="mt-1 text-sm text-red-700">
              {errors.persons.message}
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={checkIn.isPending}
          className="w-full rounded-md bg-brand-600 px-4 py-3 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {checkIn.isPending ? 'Checking...' : 'Check in'}
        </button>
      </form>
      {checkIn.isError && (
        <p role="alert" className="mt-6 text-red-700">
          {checkIn.error.message}
        </p>
      )}
      {checkIn.data && <CheckInOutcome result={checkIn.data} />}
    </>
  );
}

function CheckInOutcome({ result }: { result: CheckInResult }) {
  const admitted = result.outcome === 'admitted';
  const ticket = 'ticket' in result ? result.ticket : null;
  return (
    <div
      role="status"
      data-outcome={result.outcome}
      className={`mt-6 rounded-lg border-2 p-4 ${admitted ? 'border-green-600 bg-green-50' : 'border-red-600 bg-red-50'}`}
    >
      <p className={`text-xl font-bold ${admitted ? 'text-green-800' : 'text-red-800'}`}>
        {admitted ? 'Admit' : 'Do not admit'}
      </p>
      <p className="mt-1 font-medium">{result.message}</p>
      {ticket && (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-gray-600">Event</dt>
          <dd>{ticket.eventName || 'Event'}</dd>
          <dt className="text-gray-600">Name</dt>
          <dd>{ticket.holderName || '-'}</dd>
          <dt className="text-gray-600">Ticket</dt>
          <dd>
            {ticket.ticketTypeName || 'Ticket'} x {ticket.ticketCount}
          </dd>
          <dt className="text-gray-600">Checked in</dt>
          <dd>
            {ticket.numberOfUserCheckedIn} of {ticket.totalUserAllowed}
          </dd>
          {ticket.lastCheckInAt && (
            <>
              <dt className="text-gray-600">Last entry</dt>
              <dd>{formatInIndia(ticket.lastCheckInAt, 'dd MMM yyyy, h:mm a')}</dd>
            </>
          )}
          <dt className="text-gray-600">Booking ID</dt>
          <dd className="font-mono break-all">{ticket.bookingId}</dd>
        </dl>
      )}
    </div>
  );
}
