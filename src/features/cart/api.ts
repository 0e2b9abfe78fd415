import { get, post } from '@/core/request';
import type { Cart, CartContent, CartLine, CartLineInput, LensChoice } from '../../../types/api';

export type { Cart, CartLine, CartLineInput, LensChoice };

export const MIN_LINE_QUANTITY = 1;
export const MAX_LINE_QUANTITY = 20;

/** The signed-in shopper's saved cart, priced by the server. */
export function fetchCart(): Promise<Cart> {
  return get('/api/order/get_cart');
}

/** Replaces the saved cart with these lines (sent as the JSON string `content`) and answers it priced. */
export function saveCartLines(lines: CartLineInput[]): Promise<Cart> {
  const content: CartContent = { lines: lines.map(toLineInput) };
  return post('/api/order/upload_cart', { content: JSON.stringify(content) });
}

/** The stored part of a line: what upload_cart takes back, without the server's prices and names. */
export function toLineInput(line: CartLineInput): CartLineInput {
  return {
    goods_id: line.goods_id,
    color_id: line.color_id,
    quantity: line.quantity,
    lens: line.lens ?? null,
    prescription_id: line.prescription_id ?? null,
  };
}

/** Adds a line to the saved cart (fetching it first so other lines are kept) and answers the new cart. */
export async function addCartLine(line: CartLineInput): Promise<Cart> {
  const cart = await fetchCart();
  return saveCartLines([...cart.lines, line]);
}
