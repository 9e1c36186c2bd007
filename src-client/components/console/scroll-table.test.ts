import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 39: the console and the admin draw their data tables with one ScrollTable (a focusable region
// that scrolls sideways on a phone, with the console's border and header); the sales page's per-day
// table drew its own frame beside it. This keeps one: a region that scrolls sideways is ScrollTable's.

const CLIENT_DIR = path.resolve(import.meta.dirname, '../..');
const SCROLL_TABLE = path.join('components', 'console', 'scroll-table.tsx');
/** The folders of the console's and the admin's pages and components. */
const STAFF_DIRS = ['routes/console', 'routes/admin', 'components/console'];
/** A table element written out (ScrollTable's name does not match: `<table` then a space, `>` or a newline). */
const BARE_TABLE = /<table[\s>]/;
/** An element's opening tag that is both a labelled region and a sideways scroller. */
const SCROLLING_REGION = /<[a-z]+\b(?=[^>]*\brole="region")(?=[^>]*\boverflow-x-auto\b)[^>]*>/gs;

describe('sideways-scrolling table frames in src-client', () => {
  it('are drawn only by ScrollTable', () => {
    const own = clientFiles(CLIENT_DIR)
      .filter((file) => path.relative(CLIENT_DIR, file) !== SCROLL_TABLE)
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(SCROLLING_REGION)].map(
          (m) => `${path.relative(CLIENT_DIR, file)}: ${m[0].replace(/\s+/g, ' ')}`,
        ),
      );
    expect(own).toEqual([]);
  });

  it('the console and the admin draw no table of their own', () => {
    // A bare <table> there had neither the frame nor the sideways scroll on a phone (issue 39: the
    // booking page's tickets). The buyer's pages (the ticket, invoices) keep their own layouts.
    const own = STAFF_DIRS.flatMap((dir) => clientFiles(path.join(CLIENT_DIR, dir)))
      .filter((file) => path.relative(CLIENT_DIR, file) !== SCROLL_TABLE)
      .filter((file) => BARE_TABLE.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(CLIENT_DIR, file));
    expect(own).toEqual([]);
    expect('<table className="w-full">').toMatch(BARE_TABLE);
    expect('<ScrollTable label="Orders">').not.toMatch(BARE_TABLE);
  });

  it('would see a hand-written frame, over one line or several', () => {
    for (const tag of [
      '<div tabIndex={0} role="region" aria-label={label} className="mt-2 overflow-x-auto">',
      '<div\n  className="overflow-x-auto rounded-xl"\n  role="region"\n  aria-label="Orders"\n>',
    ]) {
      expect(tag.match(SCROLLING_REGION), tag).not.toBeNull();
    }
    for (const tag of [
      '<ul className="no-scrollbar flex gap-4 overflow-x-auto pb-2">',
      '<section role="region" aria-label="Sales">',
    ]) {
      expect(tag.match(SCROLLING_REGION), tag).toBeNull();
    }
  });
});

function clientFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return clientFiles(full);
    return entry.name.endsWith('.tsx') && !entry.name.includes('.test.') ? [full] : [];
  });
}
