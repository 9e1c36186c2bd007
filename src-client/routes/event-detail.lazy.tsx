import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/events/$eventId')({
  component: () => <PlaceholderPage title="Event" />,
});
