import type { ReactNode } from 'react';

/**
 * The console's data tables: `head` is the header row's cells, `children` the body rows. It scrolls
 * sideways on a phone, so it takes focus and can be scrolled from the keyboard.
 */
export function ScrollTable({
  label,
  head,
  children,
  minWidth = 'min-w-[640px]',
  className = 'mt-3',
}: {
  label: string;
  head: ReactNode;
  children: ReactNode;
  /** A Tailwind min-width class, written out in full where it is used so Tailwind finds it. */
  minWidth?: string;
  className?: string;
}) {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={label}
      // relative: a header's sr-only text (position: absolute) is then clipped by this scroller instead
      // of widening the whole page on a phone.
      className={`relative ${className} overflow-x-auto rounded-xl border border-gray-200`}
    >
      <table className={`w-full ${minWidth} text-left text-sm`}>
        <thead className="bg-gray-50 text-gray-700">
          <tr>{head}</tr>
        </thead>
        <tbody className="divide-y divide-gray-200">{children}</tbody>
      </table>
    </div>
  );
}

export function Th({ children, right = false }: { children: ReactNode; right?: boolean }) {
  return (
    <th scope="col" className={`px-4 py-3 font-semibold ${right ? 'text-right' : ''}`}>
      {children}
    </th>
  );
}

/** A right-aligned number cell. */
export function Td({ children }: { children: ReactNode }) {
  return <td className="px-4 py-3 text-right tabular-nums">{children}</td>;
}
