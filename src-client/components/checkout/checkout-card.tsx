import type { ReactNode } from 'react';

/** A white checkout panel (ticket details, event summary, payment summary) named by its heading. */
export function CheckoutCard({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-gray-200 bg-white p-4">
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}
