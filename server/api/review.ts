import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ReviewPage } from '../../types/api';
import { optionalUser, requireUser } from '../auth';
import type { AppContext } from '../context';
import type { ReviewDatabase } from '../db/review-schema';
import { ApiError, body, ok, pageFields } from '../http';

export const REVIEW_MAX_LENGTH = 500;

const listRequest = z.object({ ...pageFields, goods_id: z.number().int().positive().optional() });
const saveRequest = z.object({
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

export function registerReviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.db as unknown as Kysely<ReviewDatabase>;

  function reviewsQuery(goodsId: number | undefined) {
    let query = db
      .selectFrom('reviews')
      .innerJoin('goods', 'goods.id', 'reviews.goods_id')
      .innerJoin('users', 'users.id', 'reviews.user_id')
      .where('goods.deleted', '=', 0);
    if (goodsId !== undefined) query = query.where('reviews.goods_id', '=', goodsId);
    return query;
  }

  async function list(
    goodsId: number | undefined,
    pageNo: number,
    size: number,
    viewerId: number | null,
  ): Promise<ReviewPage> {
    const base = reviewsQuery(goodsId);
    const [rows, summary] = await Promise.all([
      base
        .select([
          'reviews.id',
          'reviews.goods_id',
          'reviews.user_id',
          'reviews.rating',
          'reviews.content',
          'reviews.created_at',
          'goods.name as goods_name',
          'goods.img as goods_img',
          'users.nickname',
          'users.avatar',
        ])
        .orderBy('reviews.created_at', 'desc')
        .orderBy('reviews.id', 'desc')
        .limit(size)
        .offset((pageNo - 1) * size)
        .execute(),
      base
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('reviews.rating').as('stars')])
        .executeTakeFirstOrThrow(),
    ]);
    const total = Number(summary.n);
    return {
      list: rows.map((row) => ({
        review_id: row.id,
        goods_id: row.goods_id,
        goods_name: row.goods_name,
        goods_img: row.goods_img,
        rating: row.rating,
        content: row.content,
        author: { user_id: row.user_id, nickname: row.nickname, avatar: row.avatar },
        created_at: Number(row.created_at),
        mine: viewerId === row.user_id,
      })),
      total,
      page: pageNo,
      page_size: size,
      average: total > 0 ? Math.round((Number(summary.stars) / total) * 10) / 10 : null,
    };
  }

  app.post('/api/review/get_reviews', async (request) => {
    const input = body(request, listRequest);
    const viewer = await optionalUser(ctx, request);
    return ok(await list(input.goods_id, input.page, input.page_size, viewer?.id ?? null));
  });

  app.post('/api/review/save_review', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, saveRequest);
    const goods = await db
      .selectFrom('goods')
      .select('id')
      .where('id', '=', input.goods_id)
      .where('deleted', '=', 0)
      .where('on_sale', '=', 1)
      .executeTakeFirst();
    if (!goods) throw new ApiError(404, 'goods_id: no such glasses');
    const now = ctx.now();
    const existing = await db
      .selectFrom('reviews')
      .select('id')
      .where('user_id', '=', user.id)
      .where('goods_id', '=', input.goods_id)
      .executeTakeFirst();
    if (existing) {
      await db
        .updateTable('reviews')
        .set({ rating: input.rating, content: input.content, created_at: now })
        .where('id', '=', existing.id)
        .execute();
    } else {
      await db
        .insertInto('reviews')
        .values({
          goods_id: input.goods_id,
          user_id: user.id,
          rating: input.rating,
          content: input.content,
          created_at: now,
        })
        .execute();
    }
    const own = await list(input.goods_id, 1, 100, user.id);
    const review = own.list.find((entry) => entry.mine);
    if (!review) throw new ApiError(404, 'goods_id: no such glasses');
    return ok(review);
  });
}
