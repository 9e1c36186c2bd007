/** Shown by a route whose issue has not landed yet. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-3 text-gray-600">This page is coming soon.</p>
    </section>
  );
}
