import { createLazyRoute } from '@tanstack/react-router';

export const Route = createLazyRoute('/_buyer/_account/protected')({ component: ProtectedPage });

function ProtectedPage() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-2xl font-bold">Protected</h1>
      <p className="mt-3 text-gray-700">Only accessible to logged-in users.</p>
    </section>
  );
}
