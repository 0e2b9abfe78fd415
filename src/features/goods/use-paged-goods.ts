import { type PagedList, usePagedList } from '@/features/paging/use-paged-list';
import type { GoodsCard, Page } from '../../../types/api';

export const LOAD_FAILED_MESSAGE = 'The frames could not be loaded.';

export type PagedGoods = PagedList<GoodsCard>;

/**
 * Pages of frames for a list that grows as the shopper scrolls (features/paging): `key` names the query, and a
 * new key starts the list again from page 1.
 */
export function usePagedGoods(
  key: string,
  load: (page: number) => Promise<Page<GoodsCard>>,
  enabled = true,
): PagedGoods {
  return usePagedList(key, load, { enabled, failedText: LOAD_FAILED_MESSAGE });
}
