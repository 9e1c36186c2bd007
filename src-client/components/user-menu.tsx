import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { useCurrentUser, useSignOut } from '../lib/auth.ts';
import { trpc } from '../lib/trpc.ts';

/**
 * The signed-in part of the top bar: 'Sign In', or 'Hi, {name}' with My Profile, My Bookings and Logout.
 * `variant` picks the desktop dropdown or the mobile menu's list. While the account loads it says
 * 'Loading user data...'; if that fails, 'Error: Failed to load user data' (spec §2 and §8).
 */
export function UserMenu({ variant }: { variant: 'desktop' | 'mobile' }) {
  const me = useCurrentUser();
  if (me.isPending) {
    return (
      <p
        role="status"
        className={variant === 'desktop' ? 'text-sm text-gray-600' : 'px-4 py-3 text-gray-600'}
      >
        Loading user data...
      </p>
    );
  }
  if (me.isError) {
    return (
      <p role="alert" className={variant === 'desktop' ? 'text-sm text-red-700' : 'px-4 py-3 text-red-700'}>
        {/* What failed (a network error, a server fault) means nothing to a buyer; the spec's message does. */}
        Error: Failed to load user data
      </p>
    );
  }
  if (!me.data) {
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
  const name = me.data.name || me.data.email.split('@')[0]!;
  return variant === 'desktop' ? <DesktopMenu name={name} /> : <MobileMenu name={name} />;
}

const itemClass =
  'block w-full px-4 py-2 text-left text-sm text-gray-800 hover:bg-gray-100 focus:bg-gray-100';

function DesktopMenu({ name }: { name: string }) {
  const [open, setOpen] = useState(false);
  const { signOut, isPending } = useSignOut();
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!container.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const close = () => setOpen(false);
  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-1 rounded-md px-3 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-100"
      >
        Hi, {name}
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
      </button>
      {open && (
        <ul
          id={menuId}
          className="absolute right-0 z-40 mt-1 w-44 overflow-hidden rounded-md border border-gray-200 bg-white py-1 shadow-lg"
        >
          <li>
            <Link to="/profile" className={itemClass} onClick={close}>
              My Profile
            </Link>
          </li>
          <li>
            <Link to="/my-bookings" className={itemClass} onClick={close}>
              My Bookings
            </Link>
          </li>
          <GateScannerItem className={itemClass} onClick={close} />
          <li>
            <button
              type="button"
              className={itemClass}
              disabled={isPending}
              onClick={() => {
                close();
                signOut();
              }}
            >
              Logout
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}

function MobileMenu({ name }: { name: string }) {
  const { signOut, isPending } = useSignOut();
  return (
    <div>
      <p className="px-4 pt-3 pb-1 font-semibold text-gray-900">Hi, {name}</p>
      <ul>
        <li>
          <Link to="/profile" className="block px-4 py-3 text-gray-800 hover:bg-gray-50">
            My Profile
          </Link>
        </li>
        <li>
          <Link to="/my-bookings" className="block px-4 py-3 text-gray-800 hover:bg-gray-50">
            My Bookings
          </Link>
        </li>
        <GateScannerItem className="block px-4 py-3 text-gray-800 hover:bg-gray-50" />
        <li>
          <button
            type="button"
            disabled={isPending}
            onClick={signOut}
            // The header's phone menu closes on it, as it does on its links.
            data-closes-menu
            className="block w-full px-4 py-3 text-left text-gray-800 hover:bg-gray-50"
          >
            Logout
          </button>
        </li>
      </ul>
    </div>
  );
}

/**
 * 'Gate scanner', for anyone who may run a gate: organisers, admins and every event team's members
 * (gate staff above all, who otherwise had no way to find /gate: issue 35). Asked only once the menu is
 * open, so a buyer's page loads nothing more; the gate's procedures authorise themselves.
 */
function GateScannerItem({ className, onClick }: { className: string; onClick?: () => void }) {
  const access = trpc.console.access.useQuery();
  if (!access.data || (access.data.role === 'none' && access.data.teamEvents === 0)) return null;
  return (
    <li>
      <Link to="/gate" className={className} onClick={onClick}>
        Gate scanner
      </Link>
    </li>
  );
}
