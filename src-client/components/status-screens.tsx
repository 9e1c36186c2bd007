import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** The router's error screen (spec §2: 'Unexpected Application Error!'), with a way to try again. */
export function ErrorScreen({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : null;
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">Unexpected Application Error!</h1>
      {message && <p className="mt-3 text-gray-600">{message}</p>}
      <TryAgain />
      <HomeLink text="Go to home" />
    </section>
  );
}

export function NotFoundScreen() {
  return <NotFound title="Page not found" text="The page you are looking for does not exist or has moved." />;
}

/** Something that does not exist (a page, an event, a ticket), said plainly, with a way out. */
export function NotFound({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-3 text-gray-600">{text}</p>
      {children}
      <HomeLink text="Browse events" primary />
    </section>
  );
}

/**
 * A page's data could not be loaded (a server error, no connection): the message inside the normal
 * layout and the spec's 'Try Again', which reloads the page.
 */
export function LoadFailed({ message, title }: { message: string; title?: string }) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      {title && <h1 className="text-2xl font-bold sm:text-3xl">{title}</h1>}
      <div
        role="alert"
        className="mx-auto mt-10 max-w-md rounded-lg border border-red-200 bg-red-50 p-6 text-center"
      >
        <p className="font-medium text-red-800">{message}</p>
        <TryAgain />
      </div>
    </div>
  );
}

function TryAgain() {
  return (
    <button
      type="button"
      onClick={() => window.location.reload()}
      className="mx-2 mt-6 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
    >
      Try Again
    </button>
  );
}

function HomeLink({ text, primary = false }: { text: string; primary?: boolean }) {
  return (
    <Link
      to="/"
      className={`mx-2 mt-6 inline-block rounded-md px-4 py-2 font-semibold ${primary ? 'bg-brand-600 text-white hover:bg-brand-700' : 'border border-gray-300 text-gray-800'}`}
    >
      {text}
    </Link>
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
