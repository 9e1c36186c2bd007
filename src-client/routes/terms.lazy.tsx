import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/Terms & Conditions')({
  component: () => <PlaceholderPage title="Terms and Conditions" />,
});
