import { createLazyRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../components/placeholder-page.tsx';

export const Route = createLazyRoute('/SignUp')({ component: () => <PlaceholderPage title="Sign up" /> });
