import { Link } from '@tanstack/react-router';

export type EventSection = 'edit' | 'team' | 'sales' | 'orders';

/**
 * The console's pages about one event. Gate staff see none of them (they work at the gate); the server
 * refuses them anyway. Loaded only with the console's lazy pages.
 */
export function EventNav({ eventId, current }: { eventId: string; current: EventSection }) {
  const item = 'rounded-md px-3 py-1.5 text-sm font-semibold';
  const idle = `${item} text-brand-700 underline hover:bg-brand-50`;
  const active = `${item} bg-brand-600 text-white`;
  const props = (section: EventSection) =>
    section === current
      ? { className: active, 'aria-current': 'page' as const }
      : { className: idle, 'aria-current': undefined };
  return (
    <nav aria-label="This event" className="mt-3 flex flex-wrap gap-2">
      <Link to="/organiser/events/$eventId/edit" params={{ eventId }} {...props('edit')}>
        Edit
      </Link>
      <Link to="/organiser/events/$eventId/team" params={{ eventId }} {...props('team')}>
        Team
      </Link>
      <Link to="/organiser/events/$eventId/sales" params={{ eventId }} {...props('sales')}>
        Sales
      </Link>
      <Link to="/organiser/events/$eventId/orders" params={{ eventId }} {...props('orders')}>
        Orders
      </Link>
    </nav>
  );
}
