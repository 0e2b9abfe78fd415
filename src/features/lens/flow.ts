import { openPage } from '@/core/navigation';
import { LOGIN_PAGE, NAMED_TARGETS } from '@/core/routes';
import { currentToken, rememberTarget } from '@/state/customer';
import { goodsAtom } from '@/state/goods';
import { appStore } from '@/state/store';
import Taro from '@tarojs/taro';

export const LENS_TYPE_PAGE = '/pages/product/lens-type/lens-type';
export const PRESCRIPTION_PAGE = '/pages/product/prescription/prescription';
export const LENS_PAGE = '/pages/product/lens/lens';
export const CART_PAGE = NAMED_TARGETS.cart;

/** What the lens pages pass along in the query: the frame, its colour, and the choices made so far. */
export interface LensFlowQuery {
  goods_id: string;
  color_id: string;
  lens_type_id?: string;
  prescription_id?: string;
  [key: string]: string | undefined;
}

export function definedQuery(query: LensFlowQuery): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * Add to cart from a frame page: a visitor is sent to login and, once signed in, comes back to this frame;
 * a signed-in shopper goes on to choose lenses for the frame in this colour.
 */
export function startAddToCart(goodsId: number, colorId: number, framePage: string): Promise<unknown> {
  const frameQuery = { id: String(goodsId), color_id: String(colorId) };
  if (!currentToken()) {
    rememberTarget(framePage, frameQuery);
    return Taro.navigateTo({ url: LOGIN_PAGE });
  }
  appStore.set(goodsAtom, { action: { kind: 'add_to_cart', goods_id: goodsId, color_id: colorId } });
  return openPage(LENS_TYPE_PAGE, { goods_id: String(goodsId), color_id: String(colorId) });
}
