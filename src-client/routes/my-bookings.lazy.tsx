import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/my-bookings')({
  component: () => <PlaceholderPage title="My Bookings" />,
});
