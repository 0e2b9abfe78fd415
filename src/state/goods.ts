import { atomWithStorage } from 'jotai/utils';
import { taroStorage } from './taro-storage';

/** What the shopper is doing with a frame (e.g. adding it to the cart with a lens); shaped by the goods flow. */
export type GoodsAction = Record<string, unknown>;

export interface GoodsState {
  action: GoodsAction | null;
}

/** Persisted so a reload in the middle of choosing lenses keeps the pending action. */
export const goodsAtom = atomWithStorage<GoodsState>('goods', { action: null }, taroStorage<GoodsState>(), {
  getOnInit: true,
});
