import { post } from '@/core/request';
import type { Goods, GoodsCard, GoodsPageRequest, Page, SearchPageRequest } from '../../../types/api';

export const PRODUCT_PAGE = '/pages/product/product';
export const PRODUCT_LIST_PAGE = '/pages/product/product-list-main';
export const LIST_PAGE_SIZE = 10;

export function fetchGoods(goodsId: number): Promise<Goods> {
  return post('/api/goods/get_goods_by_id', { goods_id: goodsId });
}

export function fetchGoodsPage(request: GoodsPageRequest): Promise<Page<GoodsCard>> {
  return post('/api/goods/get_goods_page', { page_size: LIST_PAGE_SIZE, ...request });
}

export function searchGoods(request: SearchPageRequest): Promise<Page<GoodsCard>> {
  return post('/api/goods/search_page', { page_size: LIST_PAGE_SIZE, ...request });
}

/** The `msg` of a rejected API body, or the fallback for anything else. */
export function failureMessage(failure: unknown, fallback: string): string {
  if (
    typeof failure === 'object' &&
    failure !== null &&
    'msg' in failure &&
    typeof failure.msg === 'string' &&
    failure.msg
  ) {
    return failure.msg;
  }
  return fallback;
}

/** A query value as typed: weapp hands it over still encoded, H5 already decoded (where a lone '%' must stay). */
export function queryText(value: string | undefined): string {
  if (!value) return '';
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
