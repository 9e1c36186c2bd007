import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/explore')({
  component: () => <PlaceholderPage title="Explore events" />,
});
