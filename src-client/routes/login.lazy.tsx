import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/login')({ component: () => <PlaceholderPage title="Sign in" /> });
