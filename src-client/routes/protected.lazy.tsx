import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/protected')({
  component: () => <PlaceholderPage title="Protected" />,
});
