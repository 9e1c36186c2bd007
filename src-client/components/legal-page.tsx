import type { ReactNode } from 'react';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** A long-form policy page: title, last-updated line, numbered sections with a table of contents. */
export function LegalPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-extrabold text-gray-900">{title}</h1>
      <p className="mt-2 text-sm text-gray-600">Last updated: {updated}</p>
      <div className="mt-4 leading-relaxed text-gray-800">{intro}</div>
      <nav aria-label="Sections" className="mt-6 rounded-xl bg-gray-50 p-4">
        <ol className="list-decimal space-y-1 pl-5 text-sm">
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="text-brand-700 hover:underline">
                {s.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((s, i) => (
        <section key={s.id} id={s.id} className="mt-8 scroll-mt-24">
          <h2 className="text-xl font-bold text-gray-900">
            {i + 1}. {s.title}
          </h2>
          <div className="mt-2 space-y-3 leading-relaxed text-gray-800 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5">
            {s.body}
          </div>
        </section>
      ))}
    </article>
  );
}
