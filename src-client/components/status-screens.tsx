import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** The router's error screen (spec §2: 'Unexpected Application Error!'). */
export function ErrorScreen({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : null;
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">Unexpected Application Error!</h1>
      {message && <p className="mt-3 text-gray-600">{message}</p>}
      <Link to="/" className="mt-6 inline-block rounded-md bg-brand-600 px-4 py-2 font-semibold text-white">
        Go to home
      </Link>
    </section>
  );
}

export function NotFoundScreen() {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="mt-3 text-gray-600">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="mt-6 inline-block rounded-md bg-brand-600 px-4 py-2 font-semibold text-white">
        Browse events
      </Link>
    </section>
  );
}

/** A page-sized message in place of content that cannot be shown (e.g. 'Event not found'). */
export function NoticeText({ text }: { text: string }) {
  return <p className="px-4 py-16 text-center text-gray-600">{text}</p>;
}

export function LoadingText({ text = 'Loading...' }: { text?: string }) {
  return (
    <p role="status" className="px-4 py-16 text-center text-gray-600">
      {text}
    </p>
  );
}

/** The grey panel a list shows when nothing matches, with what to try next below its title. */
export function NoResults({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="mt-8 rounded-2xl bg-gray-50 px-6 py-12 text-center">
      <p className="text-lg font-semibold text-gray-900">{title}</p>
      {children}
    </div>
  );
}
