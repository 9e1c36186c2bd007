/**
 * Previous / next over a server-paged list, the one pager of the console and the admin (issue 39):
 * page numbers or cursors are the caller's business; this says where the reader is and moves them.
 * Nothing shows while there is only one page.
 */
export function Pager({
  label,
  position,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
}: {
  /** The navigation landmark's name, e.g. "Orders pages". */
  label: string;
  /** Where the reader is, e.g. "Page 2 of 7"; left out where the total is not known. */
  position?: string;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  if (!hasPrevious && !hasNext) return null;
  const button =
    'rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50 disabled:opacity-50';
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center gap-3 text-sm">
      <button type="button" className={button} disabled={!hasPrevious} onClick={onPrevious}>
        Previous page
      </button>
      {position && <span>{position}</span>}
      <button type="button" className={button} disabled={!hasNext} onClick={onNext}>
        Next page
      </button>
    </nav>
  );
}
