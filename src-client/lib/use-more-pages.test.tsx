// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { useMorePages } from './use-more-pages.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Page = { items: string[]; nextCursor: string | null };
type Hook = ReturnType<typeof useMorePages<string>>;

let root: Root | undefined;
afterEach(() => act(() => root?.unmount()));

let latest: Hook | undefined;
let fetcher: (cursor: string) => Promise<Page> = () => Promise.reject(new Error('no fetcher'));

function Probe({ listKey, first }: { listKey: string; first: string | null }) {
  latest = useMorePages(listKey, first, (cursor) => fetcher(cursor));
  return null;
}

/** Renders the hook for a list `key`; `latest()` is what it last returned. */
function renderHook(fetchPage: (cursor: string) => Promise<Page>) {
  fetcher = fetchPage;
  root = createRoot(document.createElement('div'));
  const render = (listKey: string, first: string | null) =>
    act(() => root?.render(<Probe listKey={listKey} first={first} />));
  return { render, latest: () => latest as Hook };
}

/** Pages 'a' → 'b' → end, each named after its cursor. */
const pages: Record<string, Page> = {
  a: { items: ['a1', 'a2'], nextCursor: 'b' },
  b: { items: ['b1'], nextCursor: null },
};

describe('useMorePages', () => {
  it('appends each next page from the cursor and stops at the last', async () => {
    const asked: string[] = [];
    const hook = renderHook(async (cursor) => {
      asked.push(cursor);
      return pages[cursor]!;
    });
    hook.render('near|Mumbai', 'a');
    expect(hook.latest()).toMatchObject({ items: [], hasMore: true });
    await act(() => hook.latest().loadMore());
    expect(hook.latest()).toMatchObject({ items: ['a1', 'a2'], hasMore: true });
    await act(() => hook.latest().loadMore());
    expect(hook.latest()).toMatchObject({ items: ['a1', 'a2', 'b1'], hasMore: false });
    await act(() => hook.latest().loadMore());
    expect(asked).toEqual(['a', 'b']);
  });

  it('starts again for another list, and drops a page that arrives for the list left behind', async () => {
    let release: (page: Page) => void = () => {};
    const hook = renderHook((cursor) =>
      cursor === 'slow' ? new Promise<Page>((r) => (release = r)) : Promise.resolve(pages[cursor]!),
    );
    hook.render('near|Mumbai', 'a');
    await act(() => hook.latest().loadMore());
    expect(hook.latest().items).toEqual(['a1', 'a2']);

    hook.render('near|Pune', 'slow');
    expect(hook.latest()).toMatchObject({ items: [], hasMore: true });
    let pending: Promise<void> = Promise.resolve();
    act(() => {
      pending = hook.latest().loadMore();
    });
    hook.render('near|Delhi', 'a');
    await act(async () => {
      release({ items: ['pune1'], nextCursor: null });
      await pending;
    });
    expect(hook.latest()).toMatchObject({ items: [], hasMore: true });
    await act(() => hook.latest().loadMore());
    expect(hook.latest().items).toEqual(['a1', 'a2']);
  });
});
