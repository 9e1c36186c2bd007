import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/select-tickets/$eventId')({
  component: () => <PlaceholderPage title="Select tickets" />,
});
