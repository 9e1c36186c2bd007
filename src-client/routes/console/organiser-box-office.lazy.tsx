import { createLazyRoute } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import {
  type BoxOfficeKind,
  DOOR_PAYMENT_METHODS,
  type DoorPaymentMethod,
} from '../../../shared/box-office-schemas.ts';
import { formatDateTime } from '../../../shared/dates.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import {
  FormError,
  FormNotice,
  SelectField,
  SubmitButton,
  TextField,
} from '../../components/auth-fields.tsx';
import { ConsoleEventHeader, useLayoutEvent } from '../../components/console/event-page.tsx';
import { LoadingText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { serverRefusalOf } from '../../lib/server-field-errors.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/_event/organiser/events/$eventId/box-office')({
  component: BoxOfficePage,
});

const METHOD_LABELS: Record<DoorPaymentMethod, string> = { cash: 'Cash', upi: 'UPI at the venue' };

/**
 * Issue 40 (ADR 0042): the event's box office, for its owner, co-organisers, admins and its box-office
 * team. Both forms take seats from the same inventory as online sales; the server prices a door sale
 * (ticket prices with GST as the event is taxed, no convenience fee) and mails the buyer their ticket.
 */
function BoxOfficePage() {
  const { eventId } = Route.useParams();
  // Open to the box office too: the event layout lets it see this tab alone.
  const event = useLayoutEvent();
  return (
    <section className="mx-auto w-full max-w-4xl space-y-8 px-4 py-8">
      <ConsoleEventHeader title={`Box office of ${event.name}`} />
      <SaleForm eventId={eventId} kind="door" />
      <SaleForm eventId={eventId} kind="comp" />
      <LookUp eventId={eventId} />
    </section>
  );
}

function SaleForm({ eventId, kind }: { eventId: string; kind: BoxOfficeKind }) {
  const options = trpc.tickets.options.useQuery({ eventId });
  const utils = trpc.useUtils();
  const done = () => void utils.tickets.options.invalidate({ eventId });
  const comp = trpc.boxOffice.issueComp.useMutation({ onSuccess: done });
  const door = trpc.boxOffice.recordDoorSale.useMutation({ onSuccess: done });
  const mutation = kind === 'comp' ? comp : door;
  const [slotId, setSlotId] = useState('');
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [buyer, setBuyer] = useState({ name: '', email: '', phone: '', reason: '', reference: '' });
  const [method, setMethod] = useState<DoorPaymentMethod>('cash');
  const [result, setResult] = useState<{ bookingId: string; totalPaise: number } | null>(null);
  const refusal = serverRefusalOf(mutation.error);
  const errors = refusal.fields;
  const heading = kind === 'comp' ? 'Complimentary tickets' : 'Sale at the door';
  const headingId = `${kind}-heading`;

  const slots = (options.data?.dates ?? []).flatMap((d) => d.slots.filter((s) => !s.cancelled));
  const slot = slots.find((s) => s.id === slotId);

  function submit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    const lines = Object.entries(quantities)
      .map(([ticketTypeId, q]) => ({ ticketTypeId, quantity: Number(q) }))
      .filter((l) => l.quantity > 0);
    const common = { eventId, slotId, lines, name: buyer.name, email: buyer.email, phone: buyer.phone };
    const onSuccess = (data: { bookingId: string; totalPaise: number }) => {
      setResult(data);
      setQuantities({});
      setBuyer({ name: '', email: '', phone: '', reason: '', reference: '' });
    };
    if (kind === 'comp') comp.mutate({ ...common, reason: buyer.reason }, { onSuccess });
    else
      door.mutate(
        {
          ...common,
          method,
          reference: buyer.reference || undefined,
          reason: buyer.reason || undefined,
        },
        { onSuccess },
      );
  }

  const field = (name: keyof typeof buyer) => ({
    value: buyer[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => setBuyer((b) => ({ ...b, [name]: e.target.value })),
  });

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-gray-200 p-4 sm:p-6">
      <h2 id={headingId} className="text-xl font-bold">
        {heading}
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        {kind === 'comp'
          ? 'Free tickets from the same seats as online sales: ₹0, no fee and no invoice. Say why.'
          : 'Tickets paid at the venue, at their prices with GST as the event charges it; no convenience fee. The GST invoice is issued as for an online sale, and the money counts as collected at the door.'}
      </p>
      {options.isPending ? (
        <LoadingText />
      ) : (
        <form onSubmit={submit} className="mt-4 grid gap-3 sm:grid-cols-2" noValidate>
          <SelectField
            label="Show"
            placeholder="Choose a show"
            options={slots.map((s) => s.id)}
            optionLabels={Object.fromEntries(slots.map((s) => [s.id, formatDateTime(s.startTime)]))}
            value={slotId}
            onChange={(e) => {
              setSlotId(e.target.value);
              setQuantities({});
            }}
            error={errors.slotId}
            className="sm:col-span-2"
          />
          {slot?.ticketTypes.map((type) => (
            <TextField
              key={type.id}
              label={`${type.name} (${formatPaiseExact(type.pricePaise)}, ${type.availableTickets} left)`}
              type="number"
              inputMode="numeric"
              min={0}
              max={10}
              value={quantities[type.id] ?? ''}
              onChange={(e) => setQuantities((q) => ({ ...q, [type.id]: e.target.value }))}
            />
          ))}
          {errors.lines && <FormError message={errors.lines} />}
          <TextField label="Buyer’s name" autoComplete="off" {...field('name')} />
          <TextField
            label="Buyer’s e-mail"
            type="email"
            inputMode="email"
            autoComplete="off"
            {...field('email')}
          />
          <TextField
            label="Buyer’s mobile"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            {...field('phone')}
          />
          {kind === 'door' && (
            <>
              <SelectField
                label="Paid by"
                placeholder="Choose how"
                options={DOOR_PAYMENT_METHODS}
                optionLabels={METHOD_LABELS}
                value={method}
                onChange={(e) => setMethod((e.target.value || 'cash') as DoorPaymentMethod)}
              />
              <TextField label="Payment reference (optional)" {...field('reference')} />
            </>
          )}
          <TextField
            label={kind === 'comp' ? 'Reason' : 'Note (optional)'}
            placeholder={kind === 'comp' ? 'Artist’s guest, press, sponsor…' : ''}
            {...field('reason')}
            className="sm:col-span-2"
          />
          <div className="space-y-3 sm:col-span-2">
            <FormError message={refusal.form ?? errors._form} />
            {result && (
              <FormNotice>
                Booked: {result.bookingId}.{' '}
                {kind === 'door'
                  ? `Collect ${formatPaiseExact(result.totalPaise)}.`
                  : 'The ticket is on its way by e-mail.'}
              </FormNotice>
            )}
            <SubmitButton busy={mutation.isPending} busyText="Booking…">
              {kind === 'comp' ? 'Issue complimentary tickets' : 'Record the sale'}
            </SubmitButton>
          </div>
        </form>
      )}
    </section>
  );
}

function LookUp({ eventId }: { eventId: string }) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const found = trpc.boxOffice.lookUpOrders.useQuery({ eventId, query }, { enabled: query.length >= 2 });
  return (
    <section aria-labelledby="look-up-heading">
      <h2 id="look-up-heading" className="text-xl font-bold">
        Look up an order
      </h2>
      <form
        className="mt-3 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(text.trim());
        }}
      >
        <TextField
          label="Booking ID, name, e-mail or mobile"
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="min-w-64 flex-1"
        />
        <button type="submit" className="rounded-lg bg-gray-900 px-4 py-2 text-sm font-semibold text-white">
          Look up
        </button>
      </form>
      {found.error && <FormError message={messageOf(found.error)} />}
      {found.data && found.data.length === 0 && <p className="mt-3 text-gray-600">No orders match.</p>}
      {found.data && found.data.length > 0 && (
        <ul className="mt-3 divide-y divide-gray-200 rounded-xl border border-gray-200">
          {found.data.map((o) => (
            <li key={o.id} className="px-4 py-3 text-sm">
              <span className="font-semibold">{o.id}</span> · {o.userName} · {o.userEmail} · {o.userPhone} ·{' '}
              {o.ticketCount} {o.ticketCount === 1 ? 'ticket' : 'tickets'} · {CHANNEL_LABELS[o.channel]}
              {o.status === 'cancelled' ? ' · cancelled' : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const CHANNEL_LABELS = { online: 'online', door: 'at the door', comp: 'complimentary' } as const;
