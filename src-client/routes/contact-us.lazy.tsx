import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/Contact_Us')({
  component: () => <PlaceholderPage title="Contact Us" />,
});
