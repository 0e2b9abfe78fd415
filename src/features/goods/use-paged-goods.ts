import { useCallback, useEffect, useRef, useState } from 'react';
import type { GoodsCard, Page } from '../../../types/api';
import { failureMessage } from './api';

export const LOAD_FAILED_MESSAGE = 'The frames could not be loaded.';

export interface PagedGoods {
  items: GoodsCard[];
  total: number;
  /** The first page is on its way. */
  loading: boolean;
  /** A further page is on its way. */
  loadingMore: boolean;
  /** Every page is shown. */
  done: boolean;
  error: string;
  loadMore(): void;
  reload(): void;
}

/**
 * Pages of frames for a list that grows as the shopper scrolls. `key` names the query: when it changes the
 * list starts again from page 1, and answers of an older query are dropped.
 */
export function usePagedGoods(
  key: string,
  load: (page: number) => Promise<Page<GoodsCard>>,
  enabled = true,
): PagedGoods {
  const [items, setItems] = useState<GoodsCard[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(enabled);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState('');
  const generation = useRef(0);
  const busy = useRef(false);
  const loadRef = useRef(load);
  loadRef.current = load;

  const fetchPage = useCallback((pageNo: number) => {
    const current = generation.current;
    busy.current = true;
    setError('');
    if (pageNo === 1) setLoading(true);
    else setLoadingMore(true);
    loadRef.current(pageNo).then(
      (answer) => {
        if (current !== generation.current) return;
        busy.current = false;
        setItems((previous) => (pageNo === 1 ? answer.list : [...previous, ...answer.list]));
        setTotal(answer.total);
        setPage(pageNo);
        setLoading(false);
        setLoadingMore(false);
      },
      (failure: unknown) => {
        if (current !== generation.current) return;
        busy.current = false;
        setError(failureMessage(failure, LOAD_FAILED_MESSAGE));
        setLoading(false);
        setLoadingMore(false);
      },
    );
  }, []);

  const reload = useCallback(() => {
    generation.current += 1;
    setItems([]);
    setTotal(0);
    setPage(0);
    fetchPage(1);
  }, [fetchPage]);

  // `key` names the query the caller's `load` runs; a new key starts the list again.
  const [shownKey, setShownKey] = useState<string | null>(null);
  if (enabled && shownKey !== key) setShownKey(key);
  useEffect(() => {
    if (shownKey !== null) reload();
  }, [shownKey, reload]);

  const done = page > 0 && items.length >= total;
  const loadMore = useCallback(() => {
    if (busy.current || done || page === 0 || error) return;
    fetchPage(page + 1);
  }, [done, page, error, fetchPage]);

  return { items, total, loading, loadingMore, done, error, loadMore, reload };
}
