import { atom } from 'jotai';

/** How many lines the signed-in shopper's saved cart holds, as last seen; drawn on the cart icon. */
export const cartLineCountAtom = atom<number>(0);
