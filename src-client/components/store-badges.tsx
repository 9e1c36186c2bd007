/**
 * 'Download on the App Store' and 'GET IT ON Google Play' badges, drawn in markup (no image files). The
 * visible words are the accessible name of the link or button around a badge, so it needs no aria-label
 * (one that differs from the words fails WCAG 2.5.3, Label in Name); the space between the two lines keeps
 * the name 'Download on the App Store' rather than 'Download on theApp Store'.
 */
export function AppStoreBadge() {
  return (
    <span className="inline-flex items-center gap-2 rounded-lg bg-black px-3 py-1.5 text-left text-white">
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="currentColor">
        <path d="M16.4 12.6c0-2.5 2-3.6 2.1-3.7-1.2-1.7-3-1.9-3.6-2-1.5-.2-3 .9-3.8.9s-2-.9-3.3-.9C6 7 4.4 8 3.5 9.6c-1.8 3.1-.5 7.7 1.3 10.2.9 1.2 1.9 2.6 3.2 2.5 1.3-.1 1.8-.8 3.3-.8s2 .8 3.3.8c1.4 0 2.2-1.2 3.1-2.5 1-1.4 1.4-2.8 1.4-2.9-.1 0-2.7-1-2.7-4.3zM14 5.2c.7-.8 1.2-2 1-3.2-1 0-2.3.7-3 1.5-.7.7-1.2 1.9-1.1 3.1 1.2.1 2.3-.6 3.1-1.4z" />
      </svg>
      <span className="leading-tight">
        <span className="block text-[10px]">Download on the</span>{' '}
        <span className="block text-sm font-semibold">App Store</span>
      </span>
    </span>
  );
}

export function GooglePlayBadge() {
  return (
    <span className="inline-flex items-center gap-2 rounded-lg bg-black px-3 py-1.5 text-left text-white">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path d="M4 2.5l10.5 9.5L4 21.5c-.4-.2-.6-.6-.6-1.1V3.6c0-.5.2-.9.6-1.1z" fill="#34d399" />
        <path d="M14.5 12l3-2.7 3.3 1.9c.9.5.9 1.1 0 1.6l-3.3 1.9-3-2.7z" fill="#fbbf24" />
        <path d="M4 2.5c.3-.2.8-.2 1.3.1l12.2 6.7-3 2.7L4 2.5z" fill="#60a5fa" />
        <path d="M4 21.5l10.5-9.5 3 2.7-12.2 6.7c-.5.3-1 .3-1.3.1z" fill="#f87171" />
      </svg>
      <span className="leading-tight">
        <span className="block text-[10px] uppercase">Get it on</span>{' '}
        <span className="block text-sm font-semibold">Google Play</span>
      </span>
    </span>
  );
}
