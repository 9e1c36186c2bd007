import { Link } from '@tanstack/react-router';

/**
 * What a signed-in person without the rights for a console or admin page sees: a clear answer, never a
 * 500 and never someone else's data. Loaded only with those pages.
 */
export function NotAllowedScreen() {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">Not allowed</h1>
      <p className="mt-3 text-gray-600">Your account is not allowed to open this page.</p>
      <Link to="/" className="mt-6 inline-block rounded-md bg-brand-600 px-4 py-2 font-semibold text-white">
        Go to home
      </Link>
    </section>
  );
}
