import { useCallback, useEffect, useRef, useState } from 'react';

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * The pages after a first one the page already has (the home rows come with `events.home`): each
 * `loadMore()` fetches the next page from `fetchPage(cursor)` and appends it. Starts again whenever
 * `key` (what the list is of) or the first cursor changes.
 */
export function useMorePages<T>(
  key: string,
  firstCursor: string | null,
  fetchPage: (cursor: string) => Promise<Page<T>>,
) {
  const [state, setState] = useState<{ key: string; items: T[]; cursor: string | null }>({
    key: `${key}|${firstCursor}`,
    items: [],
    cursor: firstCursor,
  });
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);
  const current = state.key === `${key}|${firstCursor}` ? state : { key, items: [], cursor: firstCursor };
  useEffect(() => {
    setState({ key: `${key}|${firstCursor}`, items: [], cursor: firstCursor });
  }, [key, firstCursor]);

  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const cursor = current.cursor;
  const stateKey = `${key}|${firstCursor}`;
  const loadMore = useCallback(async () => {
    if (!cursor || busy.current) return;
    busy.current = true;
    setLoading(true);
    try {
      const page = await fetchRef.current(cursor);
      setState((prev) =>
        prev.key === stateKey
          ? { key: stateKey, items: [...prev.items, ...page.items], cursor: page.nextCursor }
          : prev,
      );
    } catch (error) {
      console.error('Failed to load more events', error);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }, [cursor, stateKey]);

  return { items: current.items, hasMore: cursor !== null, loading, loadMore };
}
