import { safeRedirectPath } from '../../shared/safe-redirect.ts';

/**
 * The line the sign-in and sign-up pages show a visitor sent there from a page that needs an account, so
 * a buyer on the checkout detour knows why they are there and that their tickets wait for them.
 */
export function signInReason(redirect: string | undefined, page: 'sign-in' | 'sign-up'): string | null {
  const target = safeRedirectPath(redirect, '');
  if (target === '' || target === '/') return null;
  if (target.startsWith('/checkout-tickets')) {
    return page === 'sign-in'
      ? 'Please log in to continue with your booking. Your tickets stay selected.'
      : 'Create an account to continue with your booking. Your tickets stay selected.';
  }
  return page === 'sign-in'
    ? 'Please log in to see that page. You will be taken back to it.'
    : 'Create an account to see that page. You will be taken back to it.';
}
