import { formatDateWithTimeRange } from '../../../shared/dates.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import { CheckoutCard } from './checkout-card.tsx';
import type { CheckoutOptions, CheckoutSlot, SelectedLine } from './checkout-price.ts';

/** The event, the show and the tickets chosen, each line at its list price. */
export function EventSummaryCard({
  event,
  slot,
  lines,
}: {
  event: CheckoutOptions['event'];
  slot: CheckoutSlot;
  lines: SelectedLine[];
}) {
  return (
    <CheckoutCard id="event-summary-heading" title={event.name}>
      <p className="text-sm text-gray-600">{event.eventLocationText}</p>
      <p className="mt-1 text-sm text-gray-600">{formatDateWithTimeRange(slot.startTime, slot.endTime)}</p>
      <ul className="mt-3 space-y-1 text-sm">
        {lines.map((l) => (
          <li key={l.type.id} className="flex justify-between gap-2">
            <span>
              {l.type.name} × {l.quantity}
            </span>
            <span>{formatPaiseExact(l.type.pricePaise * l.quantity)}</span>
          </li>
        ))}
      </ul>
    </CheckoutCard>
  );
}
