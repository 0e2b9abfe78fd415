import type { Kysely } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import type { Article, ArticleCategory, ArticleSummary, Page } from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import type { AppContext } from '../context';
import type { Database } from '../db/schema';
import { ApiError, jsonParse, pageRows } from '../http';
import { containsText } from './catalog';

export const TITLE_REQUIRED = '请填写标题~';
export const COVER_REQUIRED = '封面或轮播图不能为空~';
export const CONTENT_REQUIRED = 'content: the article is empty';

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'video', 'source', 'span', 'u', 's', 'h1', 'h2'],
  allowedAttributes: {
    ...sanitizeHtml.defaults.allowedAttributes,
    img: ['src', 'alt', 'width', 'height', 'style'],
    video: ['src', 'controls', 'poster', 'width', 'height'],
    source: ['src', 'type'],
    '*': ['style', 'class'],
  },
  allowedStyles: {
    '*': {
      color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/],
      'text-align': [/^(left|right|center|justify)$/],
      'font-size': [/^\d+(\.\d+)?(px|em|rem|%)$/],
      'font-weight': [/^(bold|normal|\d{3})$/],
      width: [/^\d+(\.\d+)?(px|%)$/],
    },
  },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'], video: ['http', 'https'] },
  allowProtocolRelative: false,
};

/** Rich text is empty when, without its tags, no image, no video and no text remain. */
export function richTextIsEmpty(html: string): boolean {
  if (/<(img|video)\b/i.test(html)) return false;
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, '').length === 0;
}

type Draft = ParsedRequestOf<'POST /api/article/insert_article'>;

function validateDraft(input: Draft): void {
  if (input.title === '') throw new ApiError(400, `title: ${TITLE_REQUIRED}`);
  if (input.cover === '' || input.imgsUrl.length === 0) throw new ApiError(400, `cover: ${COVER_REQUIRED}`);
  if (richTextIsEmpty(input.content)) throw new ApiError(400, CONTENT_REQUIRED);
}

async function authors(db: Kysely<Database>, ids: (number | null)[]) {
  const wanted = [...new Set(ids.filter((value): value is number => value !== null))];
  if (wanted.length === 0) return new Map<number, ArticleSummary['author']>();
  const rows = await db.selectFrom('users').select(['id', 'nickname', 'avatar']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, { user_id: row.id, nickname: row.nickname, avatar: row.avatar }]));
}

type ArticleRow = {
  id: number;
  title: string;
  cover: string;
  imgs: string;
  category_id: number | null;
  author_id: number | null;
  created_at: number;
  updated_at: number;
};

export async function toSummaries(db: Kysely<Database>, rows: ArticleRow[]): Promise<ArticleSummary[]> {
  const byId = await authors(
    db,
    rows.map((row) => row.author_id),
  );
  return rows.map((row) => ({
    article_id: row.id,
    title: row.title,
    cover: row.cover,
    imgsUrl: jsonParse<string[]>(row.imgs, []),
    category_id: row.category_id,
    author: row.author_id !== null ? (byId.get(row.author_id) ?? null) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

const summaryColumns = [
  'id',
  'title',
  'cover',
  'imgs',
  'category_id',
  'author_id',
  'created_at',
  'updated_at',
] as const;

async function load(ctx: AppContext, articleId: number): Promise<Article> {
  const row = await ctx.db.selectFrom('articles').selectAll().where('id', '=', articleId).executeTakeFirst();
  if (!row) throw new ApiError(404, 'id: no such article');
  const [summary] = await toSummaries(ctx.db, [row]);
  return { ...summary, content: row.content };
}

async function checkCategory(ctx: AppContext, categoryId: number | null): Promise<void> {
  if (categoryId === null) return;
  const row = await ctx.db
    .selectFrom('article_categories')
    .select('id')
    .where('id', '=', categoryId)
    .executeTakeFirst();
  if (!row) throw new ApiError(400, 'category_id: no such article category');
}

export const getArticle = load;

export async function articleCategories(ctx: AppContext): Promise<ArticleCategory[]> {
  const rows = await ctx.db.selectFrom('article_categories').selectAll().orderBy('id').execute();
  return rows.map((row) => ({ category_id: row.id, category_name: row.name }));
}

/** get_article_list: newest first, of a category or with a word in the title. */
export async function listArticles(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/article/get_article_list'>,
): Promise<Page<ArticleSummary>> {
  return newestArticles(ctx, input, input.keyword, input.category_id);
}

/** The admin's list of articles: every one, newest first; `q` finds a title's text. */
export async function adminArticleList(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/admin/article/list'>,
): Promise<Page<ArticleSummary>> {
  return newestArticles(ctx, input, input.q);
}

/** A page of articles, newest first, with `text` in the title and of `categoryId` when given. */
async function newestArticles(
  ctx: AppContext,
  paging: { page: number; page_size: number },
  text: string | undefined,
  categoryId?: number,
): Promise<Page<ArticleSummary>> {
  let base = ctx.db.selectFrom('articles');
  if (categoryId !== undefined) base = base.where('category_id', '=', categoryId);
  if (text) base = base.where(containsText('title', text));
  const { rows, total } = await pageRows(base, paging, (query) =>
    query
      .select([...summaryColumns])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
  );
  return { list: await toSummaries(ctx.db, rows), total, page: paging.page, page_size: paging.page_size };
}

/** insert_article: a draft with a title, a cover and images and some content, its HTML sanitized. */
export async function publishArticle(ctx: AppContext, authorId: number, input: Draft): Promise<Article> {
  validateDraft(input);
  await checkCategory(ctx, input.category_id);
  const now = ctx.now();
  const row = await ctx.db
    .insertInto('articles')
    .values({
      title: input.title,
      cover: input.cover,
      imgs: JSON.stringify(input.imgsUrl),
      content: sanitizeHtml(input.content, SANITIZE),
      category_id: input.category_id,
      author_id: authorId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return load(ctx, row.id);
}

export async function updateArticle(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/article/update_article'>,
): Promise<Article> {
  validateDraft(input);
  await checkCategory(ctx, input.category_id);
  const result = await ctx.db
    .updateTable('articles')
    .set({
      title: input.title,
      cover: input.cover,
      imgs: JSON.stringify(input.imgsUrl),
      content: sanitizeHtml(input.content, SANITIZE),
      category_id: input.category_id,
      updated_at: ctx.now(),
    })
    .where('id', '=', input.article_id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new ApiError(404, 'article_id: no such article');
  return load(ctx, input.article_id);
}

export async function deleteArticle(ctx: AppContext, articleId: number): Promise<void> {
  const result = await ctx.db.deleteFrom('articles').where('id', '=', articleId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new ApiError(404, 'article_id: no such article');
}
