import { useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../../../types/api';
import { failureText } from './use-admin';

/** An admin list's page, as the shop's lists: 20 at a time, the next as the admin scrolls to the bottom. */
export const ADMIN_LIST_PAGE_SIZE = 20;

export interface AdminList<T> {
  items: T[];
  /** How many the server has for the search (all of them without one). */
  total: number;
  /** The first page is on its way. */
  loading: boolean;
  /** A further page is on its way. */
  loadingMore: boolean;
  /** Every page is shown. */
  done: boolean;
  /** The first page failed: nothing is shown. */
  error: string;
  /** A further page failed: what is shown stays, and `loadMore` tries that page again. */
  moreError: string;
  loadMore(): void;
}

/**
 * One admin list (glasses or articles) that grows a page at a time. `search` is sent to the server; a new search,
 * or a new `generation` (the page shown again after an edit), starts again from page 1 and drops older answers.
 */
export function useAdminList<T>(
  load: (page: number, search: string) => Promise<Page<T>>,
  search: string,
  generation: number,
  enabled: boolean,
  fallback: string,
): AdminList<T> {
  const [items, setItems] = useState<T[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(enabled);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState('');
  const [moreError, setMoreError] = useState('');
  const query = useRef(0);
  const busy = useRef(false);
  const loadRef = useRef(load);
  loadRef.current = load;
  const searchRef = useRef(search);
  searchRef.current = search;

  const fetchPage = useCallback(
    (pageNo: number) => {
      const asked = query.current;
      busy.current = true;
      if (pageNo === 1) {
        setLoading(true);
        setError('');
      } else {
        setLoadingMore(true);
        setMoreError('');
      }
      loadRef.current(pageNo, searchRef.current).then(
        (answer) => {
          if (asked !== query.current) return;
          busy.current = false;
          setItems((shown) => (pageNo === 1 ? answer.list : [...shown, ...answer.list]));
          setTotal(answer.total);
          setPage(pageNo);
          setLoading(false);
          setLoadingMore(false);
        },
        (failure: unknown) => {
          if (asked !== query.current) return;
          busy.current = false;
          const message = failureText(failure, fallback);
          if (pageNo === 1) setError(message);
          else setMoreError(message);
          setLoading(false);
          setLoadingMore(false);
        },
      );
    },
    [fallback],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or generation starts the list again
  useEffect(() => {
    if (!enabled) return;
    query.current += 1;
    busy.current = false;
    setItems([]);
    setTotal(0);
    setPage(0);
    setMoreError('');
    fetchPage(1);
  }, [enabled, search, generation, fetchPage]);

  const done = page > 0 && (items.length >= total || page * ADMIN_LIST_PAGE_SIZE >= total);
  const loadMore = useCallback(() => {
    if (busy.current || done || page === 0) return;
    fetchPage(page + 1);
  }, [done, page, fetchPage]);

  return { items, total, loading, loadingMore, done, error, moreError, loadMore };
}
