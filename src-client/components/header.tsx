import { Link } from '@tanstack/react-router';

export function Header() {
  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="mx-auto flex max-w-7xl items-center gap-4 px-4 py-3">
        <Link to="/" className="text-xl font-extrabold text-brand-600">
          Jalsa
        </Link>
      </div>
    </header>
  );
}
