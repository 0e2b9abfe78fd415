import type { Review, ReviewPage } from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import type { AppContext } from '../context';
import { ApiError } from '../http';

function reviewsQuery(ctx: AppContext, goodsId: number | undefined) {
  let query = ctx.db
    .selectFrom('reviews')
    .innerJoin('goods', 'goods.id', 'reviews.goods_id')
    .innerJoin('users', 'users.id', 'reviews.user_id')
    .where('goods.deleted', '=', 0);
  if (goodsId !== undefined) query = query.where('reviews.goods_id', '=', goodsId);
  return query;
}

export async function listReviews(
  ctx: AppContext,
  goodsId: number | undefined,
  pageNo: number,
  size: number,
  viewerId: number | null,
): Promise<ReviewPage> {
  const base = reviewsQuery(ctx, goodsId);
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

/** save_review: the shopper's one review of a frame on sale, written again to change it. */
export async function saveReview(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/review/save_review'>,
): Promise<Review> {
  const goods = await ctx.db
    .selectFrom('goods')
    .select('id')
    .where('id', '=', input.goods_id)
    .where('deleted', '=', 0)
    .where('on_sale', '=', 1)
    .executeTakeFirst();
  if (!goods) throw new ApiError(404, 'goods_id: no such glasses');
  const now = ctx.now();
  const existing = await ctx.db
    .selectFrom('reviews')
    .select('id')
    .where('user_id', '=', userId)
    .where('goods_id', '=', input.goods_id)
    .executeTakeFirst();
  if (existing) {
    await ctx.db
      .updateTable('reviews')
      .set({ rating: input.rating, content: input.content, created_at: now })
      .where('id', '=', existing.id)
      .execute();
  } else {
    await ctx.db
      .insertInto('reviews')
      .values({
        goods_id: input.goods_id,
        user_id: userId,
        rating: input.rating,
        content: input.content,
        created_at: now,
      })
      .execute();
  }
  const own = await listReviews(ctx, input.goods_id, 1, 100, userId);
  const review = own.list.find((entry) => entry.mine);
  if (!review) throw new ApiError(404, 'goods_id: no such glasses');
  return review;
}
