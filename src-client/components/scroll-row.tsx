import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { LineIcon } from './line-icon.tsx';

/** Spec §2 and §9: arrows move the row 250 px, smoothly. */
export const SCROLL_STEP_PX = 250;

/**
 * A titled horizontal row. On desktop, arrows appear only when there is more to scroll in their
 * direction; phones scroll by touch and never show them.
 */
export function ScrollRow({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  const scroller = useRef<HTMLUListElement>(null);
  const [canLeft, setCanLeft] = useState(false);
  const [canRight, setCanRight] = useState(false);

  const update = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    setCanLeft(el.scrollLeft > 1);
    setCanRight(el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
  }, []);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  });

  const scrollBy = (direction: 1 | -1) =>
    scroller.current?.scrollBy({ left: direction * SCROLL_STEP_PX, behavior: 'smooth' });
  const headingId = `row-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;

  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-6">
      <div className="mb-3 flex items-end justify-between gap-4">
        <h2 id={headingId} className="text-xl font-bold text-gray-900 sm:text-2xl">
          {title}
        </h2>
        <div className="hidden gap-2 md:flex">
          {canLeft && <ArrowButton direction={-1} label="Scroll left" onClick={() => scrollBy(-1)} />}
          {canRight && <ArrowButton direction={1} label="Scroll right" onClick={() => scrollBy(1)} />}
        </div>
      </div>
      {intro}
      <ul ref={scroller} onScroll={update} className="no-scrollbar flex gap-4 overflow-x-auto pb-2">
        {children}
      </ul>
    </section>
  );
}

/** Wraps one card in the row with the fixed width cards have there. */
export function ScrollItem({ children }: { children: ReactNode }) {
  return <li className="w-40 shrink-0 sm:w-52">{children}</li>;
}

function ArrowButton({
  direction,
  label,
  onClick,
}: {
  direction: 1 | -1;
  label: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className="flex h-9 w-9 items-center justify-center rounded-full border border-gray-300 bg-white text-gray-700 shadow-sm hover:border-brand-500 hover:text-brand-700"
    >
      <LineIcon size={18} strokeWidth={2.5}>
        <path d={direction === 1 ? 'M9 5l7 7-7 7' : 'M15 5l-7 7 7 7'} />
      </LineIcon>
    </button>
  );
}
