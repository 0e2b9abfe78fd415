import type { Cart, CartContent, CartLine, CartLineInput } from '../../types/api';
import { cartContent } from '../../types/schemas/order';
import type { AppContext } from '../context';
import { ApiError, fromCents, jsonParse, parse } from '../http';
import { type PriceBook, loadPriceBook, priceLine } from './pricing';

export const PRESCRIPTION_GONE =
  'The prescription for these lenses was deleted. Choose the lenses again with a prescription, or remove this line.';
export const FRAME_GONE = 'This frame or colour is no longer sold. Remove this line.';
export const LENS_OPTION_GONE =
  'A lens option of this line is no longer offered. Choose the lenses again, or remove this line.';

/** What the shopper can do about a line that no longer prices, from the field the refusal names. */
function problemOf(error: unknown): string {
  const message = error instanceof ApiError ? error.message : '';
  if (/\.prescription_id: /.test(message)) return PRESCRIPTION_GONE;
  if (/\.(goods_id|color_id): /.test(message)) return FRAME_GONE;
  return LENS_OPTION_GONE;
}

/** A line that no longer prices: kept, unpriced, with what is still known of it and what to do. */
function brokenLine(book: PriceBook, line: CartLineInput, error: unknown): CartLine {
  const goods = book.goods.get(line.goods_id);
  const color = book.colors.get(`${line.goods_id}:${line.color_id}`);
  return {
    ...line,
    lens: line.lens ?? null,
    prescription_id: line.prescription_id ?? null,
    goods_name: goods?.name ?? 'A frame no longer sold',
    goods_img: goods?.img ?? '',
    color_name: color?.name ?? '',
    frame_price: 0,
    lens_detail: null,
    unit_price: 0,
    line_total: 0,
    available: false,
    problem: problemOf(error),
  };
}

/**
 * A cart priced now. A line whose prescription, frame or lens option left since it was saved stays in the view,
 * unpriced and unavailable, with what to do about it: hidden, it would still block checkout without a word.
 */
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
    } catch (error) {
      return [brokenLine(book, line, error)];
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

/** A line's stored part in a fixed order, to recognise a line kept as it was saved. */
function sameLineKey(line: CartLineInput): string {
  const lens = line.lens
    ? {
        lens_type_id: line.lens.lens_type_id,
        lens_id: line.lens.lens_id ?? null,
        thickness_id: line.lens.thickness_id ?? null,
        coating_ids: [...(line.lens.coating_ids ?? [])].sort((a, b) => a - b),
        lens_color_id: line.lens.lens_color_id ?? null,
      }
    : null;
  return JSON.stringify([line.goods_id, line.color_id, lens, line.prescription_id ?? null]);
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
  // A line kept exactly as saved may no longer price (its prescription was deleted): the shopper can still change
  // the other lines, and sees it with what to do. Every new or changed line must price.
  const row = await ctx.db.selectFrom('carts').select('content').where('user_id', '=', userId).executeTakeFirst();
  const kept = new Set(jsonParse<CartContent>(row?.content, { lines: [] }).lines.map((line) => sameLineKey(line)));
  cart.lines.forEach((line, index) => {
    if (!kept.has(sameLineKey(line))) priceLine(book, line, index, false);
  });
  const now = ctx.now();
  const stored = JSON.stringify(cart);
  const existing = await ctx.db.selectFrom('carts').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  if (existing)
    await ctx.db.updateTable('carts').set({ content: stored, updated_at: now }).where('user_id', '=', userId).execute();
  else await ctx.db.insertInto('carts').values({ user_id: userId, content: stored, updated_at: now }).execute();
  return priceCart(ctx, userId, cart.lines, now);
}
