import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { loadCityPicker, setCityPickerOpen, useCityPickerOpen } from '../lib/city-picker-state.ts';
import { useSelectedCity } from '../lib/city-storage.ts';
import { LineIcon } from './line-icon.tsx';
import { SearchInput } from './search-input.tsx';
import { UserMenu } from './user-menu.tsx';

// Radix and the city list UI load only when the picker is first opened.
const CityPicker = lazy(loadCityPicker);

/**
 * Top bar (spec §2): logo, city button, search, 'Event', sign-in or user menu; a collapsible menu on
 * phones. 'Event' opens the organiser console, whose guard sends a visitor to sign in and someone who
 * is not an organiser yet to the "List your Event" form (routes/console/organiser.lazy.tsx).
 */
export function Header() {
  const [menuOpen, setMenuOpen] = useState(false);
  const pickerOpen = useCityPickerOpen();
  const menuId = useId();

  return (
    <header className="sticky top-0 z-30 border-b border-gray-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3">
        <Link to="/" className="flex shrink-0 items-center gap-2 text-xl font-extrabold text-brand-600">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          Jalsa
        </Link>
        <CityButton className="hidden md:inline-flex" />
        <SearchBox className="hidden flex-1 md:flex" />
        <nav aria-label="Main" className="ml-auto hidden items-center gap-3 md:flex">
          <Link
            to="/organiser"
            className="rounded-md px-3 py-2 text-sm font-semibold text-gray-700 hover:bg-gray-100"
            activeProps={{ className: 'bg-brand-50 text-brand-700' }}
          >
            Event
          </Link>
          <UserMenu variant="desktop" />
        </nav>
        <div className="ml-auto flex items-center gap-2 md:hidden">
          <Link to="/search" search={{ q: '' }} className="rounded-md p-2 text-gray-700 hover:bg-gray-100">
            <span className="sr-only">Search events</span>
            <LineIcon size={22}>
              <circle cx="11" cy="11" r="7" />
              <path d="M20 20l-3.5-3.5" />
            </LineIcon>
          </Link>
          <CityButton />
          <button
            type="button"
            className="rounded-md p-2 text-gray-700 hover:bg-gray-100"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
            <LineIcon size={24}>
              {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </LineIcon>
          </button>
        </div>
      </div>
      {menuOpen && (
        <div
          id={menuId}
          className="border-t border-gray-200 px-4 pb-4 md:hidden"
          onClick={closeOnLink(setMenuOpen)}
        >
          <SearchBox className="mt-3 flex" onSearched={() => setMenuOpen(false)} />
          <nav aria-label="Mobile" className="mt-2 flex flex-col">
            <Link to="/organiser" className="block px-4 py-3 font-semibold text-gray-800">
              Event
            </Link>
            <UserMenu variant="mobile" />
          </nav>
        </div>
      )}
      {pickerOpen && (
        <Suspense fallback={null}>
          <CityPicker open onOpenChange={setCityPickerOpen} />
        </Suspense>
      )}
    </header>
  );
}

function CityButton({ className = '' }: { className?: string }) {
  const { code, name } = useSelectedCity();
  return (
    <button
      type="button"
      onClick={() => setCityPickerOpen(true)}
      className={`items-center gap-1 rounded-md border border-gray-300 px-3 py-2 text-sm font-semibold text-gray-800 hover:border-brand-500 ${className || 'inline-flex'}`}
      title={code === 'Select' ? 'Select your city' : `Change city (${name})`}
    >
      <LineIcon size={16}>
        <path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21z" />
        <circle cx="12" cy="9.5" r="2.5" />
      </LineIcon>
      <span className="sr-only">City: </span>
      {code}
    </button>
  );
}

function SearchBox({ className = '', onSearched }: { className?: string; onSearched?: () => void }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  // On the results page the box shows what was searched for.
  const searched = useRouterState({
    select: (s) =>
      s.location.pathname === '/search' ? ((s.location.search as { q?: string }).q ?? '') : null,
  });
  useEffect(() => {
    if (searched !== null) setText(searched);
  }, [searched]);
  return (
    // Named, as every search landmark is: /search has its own box too, and two unnamed search landmarks
    // read the same in a screen reader's list of landmarks (axe's landmark-unique).
    <form
      role="search"
      aria-label="Site"
      className={`items-center ${className}`}
      onSubmit={(e) => {
        e.preventDefault();
        const q = text.trim();
        if (!q) return;
        void navigate({ to: '/search', search: { q } });
        onSearched?.();
      }}
    >
      <SearchInput
        labelClassName="w-full max-w-md"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Search for Events, Workshop"
        className="w-full rounded-full border border-gray-300 bg-gray-50 py-2 pl-10 pr-4 text-sm focus:border-brand-500 focus:bg-white focus:outline-none focus:ring-2 focus:ring-brand-100"
      />
    </form>
  );
}

function closeOnLink(setOpen: (open: boolean) => void) {
  return (event: React.MouseEvent) => {
    if ((event.target as HTMLElement).closest('a, [data-closes-menu]')) setOpen(false);
  };
}
