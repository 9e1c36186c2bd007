import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/privacy-policy')({
  component: () => <PlaceholderPage title="Privacy Policy" />,
});
