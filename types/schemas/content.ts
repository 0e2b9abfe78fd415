/** Content: articles, the home page, reviews. */
import { z } from 'zod';
import { REVIEW_MAX_LENGTH } from '../constants';
import { category, goods } from './catalog';
import { adminListFields, bodyId, id, page, pageFields, person } from './common';

export const articleCategory = z.object({ category_id: z.number(), category_name: z.string() });

export const articleSummary = z.object({
  article_id: z.number(),
  title: z.string(),
  cover: z.string(),
  imgsUrl: z.array(z.string()),
  category_id: z.number().nullable(),
  author: person.nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});

/** With its sanitized HTML. */
export const article = articleSummary.extend({ content: z.string() });

export const idRequest = z.object({ id });

export const articleListRequest = z.object({
  ...pageFields,
  category_id: bodyId.optional(),
  keyword: z.string().trim().max(100).optional(),
});

/** Admin: every article, newest first; `q` finds words of a title. */
export const adminArticleListRequest = z.object({ ...adminListFields });

const imageUrl = z.string().trim().max(500);
/** A draft's fields; the server refuses an article without a title, a cover and images, or content. */
export const articleInput = z.object({
  title: z.string().trim().max(120).default(''),
  cover: imageUrl.default(''),
  imgsUrl: z.array(imageUrl.min(1)).max(20).default([]),
  content: z.string().max(200_000).default(''),
  category_id: bodyId.nullable().default(null),
});
export const articleUpdateRequest = articleInput.extend({ article_id: id });
export const articleIdRequest = z.object({ article_id: id });

/* ---- home */

export const homeSection = z.object({
  /** The Tag filter the section shows. */
  id: z.number(),
  title: z.string(),
  cover: z.string(),
  goods: z.array(goods),
});

export const homeBanner = z.object({
  image: z.string(),
  title: z.string(),
  /** An app route with its query, e.g. `/pages/product/product?id=3`. */
  link: z.string(),
});

export const homePage = z.object({
  banners: z.array(homeBanner),
  categories: z.array(category),
  sections: z.array(homeSection),
  articles: z.array(articleSummary),
});

/* ---- reviews */

/** A shopper's review of a frame: one per shopper and frame, written again to change it. */
export const review = z.object({
  review_id: z.number(),
  goods_id: z.number(),
  goods_name: z.string(),
  goods_img: z.string(),
  /** 1 to 5 stars. */
  rating: z.number(),
  content: z.string(),
  author: person,
  created_at: z.number(),
  /** true for the signed-in shopper's own review. */
  mine: z.boolean(),
});

export const reviewPage = page(review).extend({
  /** The mean rating of every review matched, to one decimal; null without reviews. */
  average: z.number().nullable(),
});

export const reviewListRequest = z.object({
  ...pageFields,
  /** Absent: the newest reviews of every frame. */
  goods_id: bodyId.optional(),
});

export const saveReviewRequest = z.object({
  goods_id: z.number({ required_error: 'is required', invalid_type_error: 'must be a number' }).int().positive(),
  rating: z
    .number({ required_error: 'is required', invalid_type_error: 'must be a number' })
    .int('must be a whole number of stars')
    .min(1, 'must be from 1 to 5')
    .max(5, 'must be from 1 to 5'),
  content: z
    .string({ required_error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(REVIEW_MAX_LENGTH, `must have at most ${REVIEW_MAX_LENGTH} characters`),
});
