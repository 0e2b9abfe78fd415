import { useWaiting } from '@/core/use-network';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../../../types/api';
import { rearmReachBottom } from './rearm-reach-bottom';

/** Shown where a page was lost to the connection: the request never settled, and the connection is back. */
export const CONNECTION_LOST_MESSAGE = 'The connection was lost.';

export interface PagedList<T, A = Page<T>> {
  items: T[];
  /** The newest page's answer (for what a list's answer carries beside its items, e.g. an average). */
  latest: A | null;
  total: number;
  /** The first page is on its way. */
  loading: boolean;
  /** A further page is on its way. */
  loadingMore: boolean;
  /** Every page is shown. */
  done: boolean;
  /** Why the last page asked for did not come (the list shows it with "Try again"); '' otherwise. */
  error: string;
  /** The next page, as the user scrolls on; nothing while a page is on its way, after a failure or at the end. */
  loadMore(): void;
  /** "Try again": asks again for the page that failed (the first one, or the next one); scrolling then goes on. */
  retry(): void;
  /** From page 1 again. */
  reload(): void;
}

/** The text of a refusal (`{msg}` from the API), else the fallback. */
export function refusalText(failure: unknown, fallback: string): string {
  if (typeof failure === 'object' && failure !== null && 'msg' in failure) {
    const { msg } = failure as { msg: unknown };
    if (typeof msg === 'string' && msg) return msg;
  }
  return fallback;
}

/**
 * Pages of a list that grows as the user scrolls. `key` names the query: when it changes the list starts again
 * from page 1, and answers of an older query are dropped. A page that fails leaves the pages shown and an error
 * with "Try again" (`retry`), which asks for that same page; once it comes, scrolling loads the next ones. A
 * page lost to the network never settles (shop-app.md §8): when the connection is back, the wait ends with
 * CONNECTION_LOST_MESSAGE and "Try again".
 */
/** The item type of a page's answer. */
type ItemOf<A> = A extends Page<infer T> ? T : never;

export function usePagedList<A extends Page<unknown>>(
  key: string,
  load: (page: number) => Promise<A>,
  {
    enabled = true,
    failedText,
    describe,
  }: {
    enabled?: boolean;
    /** The error shown when a refusal gives no message of its own. */
    failedText: string;
    /** How the list words a refusal; by default its `msg`, else `failedText`. */
    describe?: (failure: unknown) => string;
  },
): PagedList<ItemOf<A>, A> {
  type T = ItemOf<A>;
  const [items, setItems] = useState<T[]>([]);
  const [latest, setLatest] = useState<A | null>(null);
  const total = latest?.total ?? 0;
  const [page, setPage] = useState(0);
  const [asked, setAsked] = useState(0);
  const [error, setError] = useState('');
  const generation = useRef(0);
  const busy = useRef(false);
  const loadRef = useRef(load);
  loadRef.current = load;
  const describeRef = useRef((failure: unknown) => (describe ? describe(failure) : refusalText(failure, failedText)));
  describeRef.current = (failure: unknown) => (describe ? describe(failure) : refusalText(failure, failedText));

  const [waiting, setWaiting] = useWaiting(() => {
    // The page asked for was lost with the connection: its answer is not waited for any more.
    generation.current += 1;
    busy.current = false;
    setError(CONNECTION_LOST_MESSAGE);
  });

  const fetchPage = useCallback(
    (pageNo: number) => {
      const current = generation.current;
      busy.current = true;
      setError('');
      setAsked(pageNo);
      setWaiting(true);
      loadRef.current(pageNo).then(
        (answer) => {
          if (current !== generation.current) return;
          busy.current = false;
          setWaiting(false);
          setItems((previous) => {
            const list = answer.list as T[];
            return pageNo === 1 ? list : [...previous, ...list];
          });
          setLatest(answer);
          setPage(pageNo);
        },
        (failure: unknown) => {
          if (current !== generation.current) return;
          busy.current = false;
          setWaiting(false);
          setError(describeRef.current(failure));
        },
      );
    },
    [setWaiting],
  );

  const reload = useCallback(() => {
    generation.current += 1;
    setItems([]);
    setLatest(null);
    setPage(0);
    fetchPage(1);
  }, [fetchPage]);

  // `key` names the query the caller's `load` runs; a new key starts the list again.
  const [shownKey, setShownKey] = useState<string | null>(null);
  if (enabled && shownKey !== key) setShownKey(key);
  useEffect(() => {
    if (shownKey !== null) reload();
  }, [shownKey, reload]);

  // Each page shown: reach-bottom can fire at the list's new end, however the user gets there.
  useEffect(() => {
    if (page > 0) rearmReachBottom();
  }, [page]);

  const done = page > 0 && items.length >= total;
  const loadMore = useCallback(() => {
    if (busy.current || done || page === 0 || error) return;
    fetchPage(page + 1);
  }, [done, page, error, fetchPage]);

  const retry = useCallback(() => {
    if (busy.current) return;
    if (page === 0) reload();
    else fetchPage(page + 1);
  }, [page, reload, fetchPage]);

  // Until the first page is shown (or has failed), the list is loading.
  const loading = enabled && page === 0 && !error;
  return { items, latest, total, loading, loadingMore: waiting && asked > 1, done, error, loadMore, retry, reload };
}
