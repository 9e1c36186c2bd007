import { createLazyRoute } from '@tanstack/react-router';
import { CheckoutScreen } from '../../components/checkout/checkout-screen.tsx';
import type { CheckoutSearch } from '../../components/checkout/checkout-search.ts';
import { EventLoadError } from '../../components/event-load-error.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { trpc } from '../../lib/trpc.ts';
import { checkoutRoute } from './checkout.tsx';

export const Route = createLazyRoute('/_buyer/_account/checkout-tickets')({ component: CheckoutPage });

const NO_BOOKING_DATA = 'No booking data found. Please go back and select your tickets again.';

function CheckoutPage() {
  const search = checkoutRoute.useSearch();
  const complete =
    search.eventId && search.selectedDate && search.selectedSlot && (search.selectedTickets?.length ?? 0) > 0;
  if (!complete) return <NoticeText text={NO_BOOKING_DATA} />;
  return <CheckoutLoader search={search as Required<Pick<CheckoutSearch, 'eventId'>> & CheckoutSearch} />;
}

function CheckoutLoader({ search }: { search: CheckoutSearch & { eventId: string } }) {
  // With the buyer's access code, the hidden types it unlocks are in the answer (ADR 0038).
  const options = trpc.tickets.options.useQuery({ eventId: search.eventId, code: search.code });
  if (options.isPending) return <LoadingText />;
  if (options.error) return <EventLoadError error={options.error} />;
  const date = options.data.dates.find((d) => d.id === search.selectedDate);
  const slot = date?.slots.find((s) => s.id === search.selectedSlot);
  const lines = (search.selectedTickets ?? []).flatMap((sel) => {
    const type = slot?.ticketTypes.find((t) => t.id === sel.ticketTypeId);
    return type ? [{ type, quantity: sel.quantity }] : [];
  });
  if (!date || !slot || lines.length === 0) return <NoticeText text={NO_BOOKING_DATA} />;
  return <CheckoutScreen data={options.data} dateId={date.id} slot={slot} lines={lines} code={search.code} />;
}
