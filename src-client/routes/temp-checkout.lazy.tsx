import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/temp-checkout')({
  component: () => <PlaceholderPage title="Razorpay Payment" />,
});
