import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/ticket/$bookingId')({
  component: () => <PlaceholderPage title="Ticket" />,
});
