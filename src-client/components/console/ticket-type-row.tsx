import { formatSaleWindow } from '../../../shared/dates.ts';
import { formatPaise } from '../../../shared/money.ts';
import { trpc } from '../../lib/trpc.ts';
import { EditError, type Run, useEditAction } from './edit-error.tsx';
import type { EditableTicketType, EditBase } from './editable-event.ts';
import { TicketTypeForm } from './ticket-type-form.tsx';

/** A ticket type's line (price, sold, held, sale window), with its edit form and Remove. */
export function TicketTypeRow({ base, type, run }: { base: EditBase; type: EditableTicketType; run: Run }) {
  const update = trpc.organiser.updateTicketType.useMutation();
  const removeType = trpc.organiser.removeTicketType.useMutation();
  const remove = useEditAction(run);
  const initial = {
    name: type.name,
    priceRupees: type.pricePaise / 100,
    totalTickets: type.totalTickets,
    maxPerOrder: type.maxPerOrder,
    personAllowedPerTicket: type.personAllowedPerTicket,
    description: type.description,
    benefits: type.benefits,
    isRefundable: type.isRefundable,
    onSale: type.isLive,
    isHidden: type.isHidden,
    perAttendeeTickets: type.perAttendeeTickets ?? false,
    saleOpensAt: type.saleOpensAt,
    saleClosesAt: type.saleClosesAt,
  };
  return (
    <li className="py-2">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span>
          <strong>{type.name}</strong> · {formatPaise(type.pricePaise)} · {type.sold} sold, {type.held} held
          of {type.totalTickets}
          {!type.isLive && ' · not on sale'}
          {type.isHidden && ' · hidden (access code only)'}
          {type.perAttendeeTickets && ' · one QR per attendee'} ·{' '}
          {formatSaleWindow(type.saleOpensAt, type.saleClosesAt)}
        </span>
        <button
          type="button"
          disabled={removeType.isPending}
          onClick={() => remove.act(() => removeType.mutateAsync({ ...base, ticketTypeId: type.id }))}
          className="rounded-md border border-gray-300 px-2 py-1 text-xs font-semibold disabled:opacity-60"
          aria-label={`Remove ${type.name}`}
        >
          Remove
        </button>
      </div>
      <EditError message={remove.error} />
      <details className="mt-1">
        <summary className="cursor-pointer text-sm text-brand-700">Edit {type.name}</summary>
        <div className="mt-2">
          <TicketTypeForm
            initial={initial}
            submitLabel="Save ticket type"
            onSave={(ticket) => run(() => update.mutateAsync({ ...base, ticketTypeId: type.id, ticket }))}
          />
        </div>
      </details>
    </li>
  );
}
