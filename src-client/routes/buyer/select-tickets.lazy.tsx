import * as Dialog from '@radix-ui/react-dialog';
import { createLazyRoute, Link, Navigate, useRouter } from '@tanstack/react-router';
import { type ReactNode, useMemo, useState } from 'react';
import { dateChipParts, formatDateWithTimeRange, formatTime } from '../../../shared/dates.ts';
import { isExemptAdmission } from '../../../shared/gst.ts';
import { formatPaise } from '../../../shared/money.ts';
import { perOrderMaxOf } from '../../../shared/per-order-max.ts';
import { type CheckoutTaxes, checkoutPriceBreakdown } from '../../../shared/pricing.ts';
import { saleWindowMessage, saleWindowState } from '../../../shared/sale-window.ts';
import { EventLoadError } from '../../components/event-load-error.tsx';
import { JoinWaitingList } from '../../components/join-waiting-list.tsx';
import { ModalPanel } from '../../components/modal.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { firstOnSale, ticketDays } from '../../lib/ticket-days.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { storedAdmissionPass } from '../../lib/waiting-room-storage.ts';
import { selectTicketsRoute } from './select-tickets.tsx';

export const Route = createLazyRoute('/_buyer/select-tickets/$eventId')({ component: SelectTicketsPage });

type Options = RouterOutputs['tickets']['options'];
type TicketType = Options['dates'][number]['slots'][number]['ticketTypes'][number];

/**
 * A ticket type can be bought only while live, inside its sale window and with seats left (spec §5);
 * the server refuses the rest at Proceed too.
 */
const purchasable = (t: TicketType) =>
  t.isLive && t.availableTickets > 0 && saleWindowMessage(t, new Date()) === null;
const maxFor = (t: TicketType) => Math.min(perOrderMaxOf(t), t.availableTickets);
/**
 * Why a type cannot be bought, or 'Available': outside its sale window 'Sale opens <IST time>' or
 * 'Sales closed'; a type that is not live has not gone on sale (or was paused); only a live one with no
 * seats is sold out.
 */
const availability = (t: TicketType) =>
  purchasable(t)
    ? 'Available'
    : (saleWindowMessage(t, new Date()) ?? (t.isLive ? 'Sold Out' : 'Not on sale yet'));
/**
 * What a button that cannot be pressed says: the same reason, except that a sale opening later says
 * 'Not on sale yet' there, since its date beside the price would squeeze the name on a phone.
 */
const buttonReason = (t: TicketType) =>
  saleWindowState(t, new Date()) === 'not_yet_open' ? 'Not on sale yet' : availability(t);

function SelectTicketsPage() {
  const { eventId } = selectTicketsRoute.useParams();
  const { code } = selectTicketsRoute.useSearch();
  const options = trpc.tickets.options.useQuery({ eventId, code });
  if (options.isPending) return <LoadingText />;
  if (options.error) return <EventLoadError error={options.error} />;
  if (options.data.dates.length === 0) return <NoticeText text="Event data not available" />;
  // A waiting-room event (issue 19): without a pass, the buyer waits for their turn first. The server
  // refuses Proceed without one anyway; this only saves choosing tickets that cannot be held yet.
  if (options.data.waitingRoom && !storedAdmissionPass(eventId)) {
    return <Navigate to="/events/$eventId/waiting-room" params={{ eventId }} replace />;
  }
  return <TicketSelection data={options.data} code={code} />;
}

/** The page on the server's ticket options (exported for its component test). */
export function TicketSelection({ data, code }: { data: Options; code?: string }) {
  const router = useRouter();
  const days = useMemo(() => ticketDays(data.dates), [data.dates]);
  const [start] = useState(() => firstOnSale(days, purchasable));
  const [dayIndex, setDayIndex] = useState(start.dayIndex);
  // Spec §4: choosing a date leaves the slot choice as it is, so the slot is kept by position.
  const [slotIndex, setSlotIndex] = useState(start.slotIndex);
  const [selected, setSelected] = useState<{ ticketTypeId: string; quantity: number } | null>(null);
  // Spec §4 allows one ticket type per booking: choosing another asks before replacing the first.
  const [replacing, setReplacing] = useState<TicketType | null>(null);

  const day = days[dayIndex] ?? days[0]!;
  const chosen = day.slots[Math.min(slotIndex, day.slots.length - 1)];
  const slot = chosen?.slot;
  const selectedType = slot?.ticketTypes.find((t) => t.id === selected?.ticketTypeId);
  const quantity = selectedType ? (selected?.quantity ?? 0) : 0;
  // Where prices have GST added at checkout, the running total already carries it (issue 40: no drip
  // pricing), worked by the function Proceed charges with, on the taxes the server sent.
  const { subtotalPaise, admissionTaxPaise } = checkoutPriceBreakdown(
    selectedType
      ? [
          {
            pricePaise: selectedType.pricePaise,
            quantity,
            personsPerTicket: selectedType.personAllowedPerTicket,
          },
        ]
      : [],
    data.event.platformFeeRate,
    data.taxes,
  );
  const totalPaise = subtotalPaise + admissionTaxPaise;

  const setQuantity = (type: TicketType, next: number) => {
    if (next <= 0) setSelected(null);
    else setSelected({ ticketTypeId: type.id, quantity: Math.min(next, maxFor(type)) });
  };
  const choose = (type: TicketType) => {
    if (selectedType && selectedType.id !== type.id) setReplacing(type);
    else setQuantity(type, 1);
  };

  return (
    <div className="pb-28">
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex max-w-4xl items-start gap-3 px-4 py-4">
          <button
            type="button"
            onClick={() => router.history.back()}
            aria-label="Back"
            className="rounded-full p-2 hover:bg-gray-100"
          >
            <span aria-hidden="true">←</span>
          </button>
          <div className="min-w-0 flex-1">
            <h1 className="text-xl font-bold">{data.event.name}</h1>
            <p className="text-sm text-gray-600">{data.event.eventLocationText}</p>
            {slot && (
              <p className="text-sm text-gray-600" data-testid="chosen-date">
                {formatDateWithTimeRange(slot.startTime, slot.endTime)}
              </p>
            )}
          </div>
          <Link to="/" aria-label="Close" className="rounded-full p-2 hover:bg-gray-100">
            <span aria-hidden="true">✕</span>
          </Link>
        </div>
      </header>

      <div className="mx-auto max-w-4xl px-4">
        <ChoiceGroup id="dates-heading" heading="Date" rowClassName="no-scrollbar overflow-x-auto">
          {days.map((d, i) => {
            const chip = dateChipParts(d.dateOfEvent);
            return (
              <ChoiceButton
                key={d.key}
                active={i === dayIndex}
                onClick={() => {
                  setDayIndex(i);
                  setSelected(null);
                }}
                className="flex min-w-16 flex-col items-center px-3 py-2"
              >
                <span className="text-xs">{chip.weekday}</span>
                <span className="text-lg font-bold">{chip.day}</span>
                <span className="text-xs">{chip.month}</span>
              </ChoiceButton>
            );
          })}
        </ChoiceGroup>

        <ChoiceGroup id="times-heading" heading="Time" rowClassName="flex-wrap">
          {day.slots.map(({ slot: s }, i) => (
            <ChoiceButton
              key={s.id}
              active={s.id === slot?.id}
              disabled={s.cancelled}
              onClick={() => {
                setSlotIndex(i);
                setSelected(null);
              }}
              className="px-4 py-2 text-sm font-medium"
            >
              {formatTime(s.startTime)}
              {s.cancelled && ' · Cancelled'}
            </ChoiceButton>
          ))}
        </ChoiceGroup>

        <section aria-labelledby="types-heading" className="mt-6">
          <h2 id="types-heading" className="text-lg font-bold">
            Tickets
          </h2>
          {slot?.cancelled ? (
            <p className="mt-3 font-semibold text-red-800">This show has been cancelled.</p>
          ) : !slot || slot.ticketTypes.length === 0 ? (
            <p className="mt-3 text-gray-600">No ticket types available for this slot.</p>
          ) : (
            <ul className="mt-3 space-y-4">
              {slot.ticketTypes.map((type) => (
                <TicketTypeCard
                  key={type.id}
                  type={type}
                  taxes={data.taxes}
                  quantity={selectedType?.id === type.id ? quantity : 0}
                  onSelect={() => choose(type)}
                  onChange={(next) => setQuantity(type, next)}
                />
              ))}
            </ul>
          )}
        </section>
      </div>

      <div className="fixed inset-x-0 bottom-0 z-20 border-t border-gray-200 bg-white shadow-[0_-2px_8px_rgba(0,0,0,0.06)]">
        <div className="mx-auto flex max-w-4xl items-center justify-between gap-4 px-4 py-3">
          <div>
            <p className="text-lg font-bold" data-testid="selection-total">
              {formatPaise(totalPaise)}
            </p>
            <p className="text-sm text-gray-600">
              {quantity} Ticket(s)
              {admissionTaxPaise > 0 && (
                <span data-testid="selection-gst"> · incl. {formatPaise(admissionTaxPaise)} GST</span>
              )}
            </p>
          </div>
          {selectedType && slot && chosen ? (
            <Link
              to="/checkout-tickets"
              search={{
                eventId: data.event.id,
                selectedDate: chosen.dateId,
                selectedSlot: slot.id,
                selectedTickets: [{ ticketTypeId: selectedType.id, quantity }],
                totalPrice: totalPaise,
                totalTickets: quantity,
                eventName: data.event.name,
                eventLocation: data.event.eventLocationText,
                // The access code goes on to the checkout, which applies it (ADR 0038).
                ...(code ? { code } : {}),
              }}
              className="rounded-md bg-brand-600 px-6 py-2.5 font-semibold text-white hover:bg-brand-700"
            >
              Checkout
            </Link>
          ) : (
            <span
              aria-disabled="true"
              className="cursor-not-allowed rounded-md bg-gray-300 px-6 py-2.5 font-semibold text-gray-600"
            >
              Checkout
            </span>
          )}
        </div>
      </div>
      {replacing && selectedType && (
        <ReplaceSelectionDialog
          current={`${quantity} × ${selectedType.name}`}
          next={replacing.name}
          onAnswer={(replace) => {
            if (replace) setQuantity(replacing, 1);
            setReplacing(null);
          }}
        />
      )}
    </div>
  );
}

/** Asks before a second ticket type replaces the first (one ticket category per booking, spec §4). */
function ReplaceSelectionDialog({
  current,
  next,
  onAnswer,
}: {
  current: string;
  next: string;
  onAnswer: (replace: boolean) => void;
}) {
  return (
    <ModalPanel open onOpenChange={(open) => !open && onAnswer(false)} className="w-[min(92vw,26rem)] p-5">
      <Dialog.Title className="text-lg font-bold">One ticket category per booking</Dialog.Title>
      <Dialog.Description className="mt-2 text-gray-700">
        One ticket category per booking — replace {current} with {next}?
      </Dialog.Description>
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          onClick={() => onAnswer(false)}
          className="rounded-md border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          Keep {current}
        </button>
        <button
          type="button"
          onClick={() => onAnswer(true)}
          className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          Replace with {next}
        </button>
      </div>
    </ModalPanel>
  );
}

/** A titled row of choices, one of them pressed (the dates, the time slots). */
function ChoiceGroup({
  id,
  heading,
  rowClassName,
  children,
}: {
  id: string;
  heading: string;
  rowClassName: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mt-5">
      <h2 id={id} className="text-sm font-semibold text-gray-700">
        {heading}
      </h2>
      <div className={`mt-2 flex gap-2 ${rowClassName}`}>{children}</div>
    </section>
  );
}

function ChoiceButton({
  active,
  onClick,
  className,
  children,
  disabled = false,
}: {
  active: boolean;
  onClick: () => void;
  className: string;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      disabled={disabled}
      onClick={onClick}
      className={`rounded-lg border disabled:cursor-not-allowed disabled:text-gray-400 disabled:line-through ${className} ${
        active ? 'border-brand-600 bg-brand-50 text-brand-700' : 'border-gray-300 bg-white'
      }`}
    >
      {children}
    </button>
  );
}

function TicketTypeCard({
  type,
  taxes,
  quantity,
  onSelect,
  onChange,
}: {
  type: TicketType;
  /**
   * How the organiser's invoice taxes the tickets: its rate added on top when prices exclude GST, entry
   * 81's exemption, and what the waiting list asks for Rule 46's address by.
   */
  taxes: CheckoutTaxes;
  quantity: number;
  onSelect: () => void;
  onChange: (next: number) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const available = purchasable(type);
  const long = type.description.length > 90;
  const max = maxFor(type);
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h3 className="font-semibold">{type.name}</h3>
          {type.isHidden && <p className="text-xs font-medium text-brand-700">Unlocked by your code</p>}
          <p className="mt-0.5 text-lg font-bold">
            {formatPaise(type.pricePaise)}
            {taxes.admissionTaxRatePercent !== null &&
              !isExemptAdmission(
                type.pricePaise,
                type.personAllowedPerTicket,
                taxes.admissionExemptionApplies,
              ) && (
                <span className="ml-1 text-sm font-normal text-gray-600">
                  + {taxes.admissionTaxRatePercent}% GST
                </span>
              )}
          </p>
          <p className={`text-sm font-medium ${available ? 'text-green-700' : 'text-red-700'}`}>
            {availability(type)}
          </p>
        </div>
        <div className="shrink-0">
          {quantity > 0 ? (
            <>
              <div className="flex items-center gap-2" role="group" aria-label={`${type.name} quantity`}>
                <button
                  type="button"
                  onClick={() => onChange(quantity - 1)}
                  aria-label={`Remove one ${type.name}`}
                  className="h-9 w-9 rounded-full border border-brand-600 text-lg font-bold text-brand-700"
                >
                  −
                </button>
                <span className="w-6 text-center font-semibold" aria-live="polite">
                  {quantity}
                </span>
                <button
                  type="button"
                  onClick={() => onChange(quantity + 1)}
                  disabled={quantity >= max}
                  aria-label={`Add one ${type.name}`}
                  className="h-9 w-9 rounded-full border border-brand-600 text-lg font-bold text-brand-700 disabled:border-gray-300 disabled:text-gray-400"
                >
                  +
                </button>
              </div>
              <p className="mt-1 text-right text-xs text-gray-600" data-testid="quantity-limit">
                {max < perOrderMaxOf(type) ? `Only ${max} left` : `Max ${max} per booking`}
              </p>
            </>
          ) : (
            <button
              type="button"
              onClick={onSelect}
              disabled={!available}
              aria-label={available ? `Select Ticket: ${type.name}` : undefined}
              className="rounded-md border border-brand-600 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 disabled:border-gray-300 disabled:text-gray-400"
            >
              {available ? 'Select Ticket' : buttonReason(type)}
            </button>
          )}
        </div>
      </div>
      {type.isLive &&
        !type.isHidden &&
        type.availableTickets <= 0 &&
        saleWindowMessage(type, new Date()) === null && (
          <JoinWaitingList
            ticketTypeId={type.id}
            ticketTypeName={type.name}
            maxPerOrder={type.maxPerOrder}
            pricePaise={type.pricePaise}
            personsPerTicket={type.personAllowedPerTicket}
            taxes={taxes}
          />
        )}
      <p className="mt-2 text-xs font-semibold text-gray-700" data-testid="refundability">
        {type.isRefundable ? 'Refundable: cancel from My Bookings before the cut-off' : 'Non-refundable'}
      </p>
      {type.benefits.length > 0 && (
        <ul className="mt-3 list-disc space-y-0.5 pl-5 text-sm text-gray-700">
          {type.benefits.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
      )}
      {type.description && (
        <div className="mt-2 text-sm text-gray-600">
          <p className={expanded || !long ? '' : 'line-clamp-2'}>{type.description}</p>
          {long && (
            <button
              type="button"
              onClick={() => setExpanded((v) => !v)}
              className="mt-1 font-medium text-brand-700 underline"
            >
              {expanded ? 'Show less' : 'Show more'}
            </button>
          )}
        </div>
      )}
    </li>
  );
}
