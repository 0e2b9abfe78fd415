import { get, post, upload } from '@/core/request';
import Taro from '@tarojs/taro';
import type { ArticleInput, ArticleSummary, GoodsCard, Page, SaveGoodsRequest, SaveTo } from '../../../types/api';
import { ADMIN_LIST_PAGE_SIZE } from './use-admin-list';

/** Every frame, unlisted ones too (admin only), newest first; `search` finds a name or an id (`17`, `#17`). */
export function listAllGoods(page: number, search: string): Promise<Page<GoodsCard>> {
  return post('/api/admin/goods/list', { page, page_size: ADMIN_LIST_PAGE_SIZE, q: search || undefined });
}

/** Every article (admin only), newest first; `search` finds words of a title. */
export function listArticles(page: number, search: string): Promise<Page<ArticleSummary>> {
  return post('/api/admin/article/list', { page, page_size: ADMIN_LIST_PAGE_SIZE, q: search || undefined });
}

export const getGoods = (goodsId: number) => post('/api/goods/get_goods_by_id', { goods_id: goodsId });
export const saveGoods = (input: SaveGoodsRequest) => post('/api/goods/save_goods', input);
export const unlistGoods = (goodsId: number, unlisted: boolean) =>
  post('/api/goods/unlist_goods', { goods_id: goodsId, unlisted });
export const deleteGoods = (goodsId: number) => post('/api/goods/delete_goods', { goods_id: goodsId });

export const getArticle = (articleId: number) => get('/api/article/get_article', { id: articleId });
export const insertArticle = (input: ArticleInput) => post('/api/article/insert_article', input);
export const updateArticle = (articleId: number, input: ArticleInput) =>
  post('/api/article/update_article', { ...input, article_id: articleId });
export const deleteArticle = (articleId: number) => post('/api/article/delete_article', { article_id: articleId });

export const loadColors = () => get('/api/config/get_colors');
export const loadFilters = () => get('/api/config/get_filters');
export const loadCategories = () => get('/api/config/get_category_page', { page: 1, page_size: 100 });

/** Picks images from the album or camera and uploads each through save_goods_media_files; answers the URLs. */
export async function pickAndUpload(saveTo: SaveTo, count = 1): Promise<string[]> {
  const chosen = await Taro.chooseImage({ count, sizeType: ['compressed'], sourceType: ['album', 'camera'] });
  const files = chosen.tempFiles ?? [];
  const urls: string[] = [];
  for (const [index, filePath] of chosen.tempFilePaths.entries()) {
    const original = (files[index] as { originalFileObj?: File } | undefined)?.originalFileObj;
    const uploaded = await upload('/api/goods/save_goods_media_files', filePath, saveTo, { fileName: original?.name });
    urls.push(uploaded.url);
  }
  return urls;
}

export const loadArticleCategories = () => get('/api/article/get_article_category');
