import { get, post, upload } from '@/core/request';
import type { ArticleInput } from '../../../types/api';

export const loadArticle = (id: number) => get('/api/article/get_article', { id });
export const loadArticleCategories = () => get('/api/article/get_article_category', undefined, { loading: false });
export const insertArticle = (input: ArticleInput) => post('/api/article/insert_article', input);

/** Article images and videos go through the media upload with save_to ARTICLE (administrators only). */
export const uploadArticleMedia = (filePath: string, fileName?: string) =>
  upload('/api/goods/save_goods_media_files', filePath, 'ARTICLE', { fileName });
