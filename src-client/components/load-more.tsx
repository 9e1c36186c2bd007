import { useEffect, useRef } from 'react';
import { formatCount } from '../../shared/money.ts';

/**
 * The end of a paged list: a "Load more" button that also presses itself when it scrolls into view
 * (infinite scroll), so a phone keeps scrolling and a keyboard or screen reader can still ask.
 */
export function LoadMore({
  onMore,
  loading,
  label = 'Load more',
  className = '',
}: {
  onMore: () => void;
  loading: boolean;
  label?: string;
  className?: string;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const latest = useRef(onMore);
  latest.current = onMore;
  useEffect(() => {
    const el = button.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) latest.current();
      },
      { rootMargin: '300px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <button
      ref={button}
      type="button"
      onClick={onMore}
      disabled={loading}
      className={`rounded-full border border-brand-600 px-5 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60 ${className}`}
    >
      {loading ? 'Loading…' : label}
    </button>
  );
}

/** "1 event", "24 events", "100+ events". */
export function eventCount(total: number, capped: boolean): string {
  const n = `${formatCount(total)}${capped ? '+' : ''}`;
  return `${n} ${total === 1 && !capped ? 'event' : 'events'}`;
}
