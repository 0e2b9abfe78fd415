import type { Cart, CartContent, CartLineInput } from '../../types/api';
import { cartContent } from '../../types/schemas/order';
import type { AppContext } from '../context';
import { ApiError, fromCents, jsonParse, parse } from '../http';
import { loadPriceBook, priceLine } from './pricing';

/** A cart priced now: a line whose frame or option left the catalogue since it was saved is dropped from the view. */
export async function priceCart(
  ctx: AppContext,
  userId: number,
  lines: CartLineInput[],
  updatedAt: number | null,
): Promise<Cart> {
  const book = await loadPriceBook(ctx.db, lines, userId);
  const priced = lines.flatMap((line, index) => {
    try {
      const { cents: _cents, ...rest } = priceLine(book, line, index, false);
      return [rest];
    } catch {
      return [];
    }
  });
  const subtotalCents = priced
    .filter((line) => line.available)
    .reduce((sum, line) => sum + Math.round(line.line_total * 100), 0);
  return {
    lines: priced,
    item_count: priced.reduce((sum, line) => sum + line.quantity, 0),
    subtotal: fromCents(subtotalCents),
    updated_at: updatedAt,
  };
}

export async function savedCart(ctx: AppContext, userId: number): Promise<Cart> {
  const row = await ctx.db.selectFrom('carts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const content = jsonParse<CartContent>(row?.content, { lines: [] });
  return priceCart(ctx, userId, content.lines, row?.updated_at ?? null);
}

/** Replaces the saved cart with `content` (JSON of {lines}); every line must price against the catalogue. */
export async function replaceCart(ctx: AppContext, userId: number, content: string): Promise<Cart> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(content);
  } catch {
    throw new ApiError(400, 'content: must be a JSON string of {lines: [...]}');
  }
  const cart = parse(cartContent, decoded);
  const book = await loadPriceBook(ctx.db, cart.lines, userId);
  cart.lines.forEach((line, index) => priceLine(book, line, index, false));
  const now = ctx.now();
  const stored = JSON.stringify(cart);
  const existing = await ctx.db.selectFrom('carts').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  if (existing)
    await ctx.db.updateTable('carts').set({ content: stored, updated_at: now }).where('user_id', '=', userId).execute();
  else await ctx.db.insertInto('carts').values({ user_id: userId, content: stored, updated_at: now }).execute();
  return priceCart(ctx, userId, cart.lines, now);
}
