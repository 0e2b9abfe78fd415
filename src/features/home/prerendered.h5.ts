import { toHomePage } from './api';
import type { PrerenderedHome } from './prerendered';

/** The ids server/prerender/home.ts writes. */
export const PRERENDER_ID = 'lm-prerender';
export const HOME_DATA_ID = 'lm-home-data';

let taken = false;

export const prerenderedHome: PrerenderedHome = {
  take() {
    if (taken) return null;
    taken = true;
    const block = document.getElementById(HOME_DATA_ID);
    if (!block || !document.getElementById(PRERENDER_ID)) return null;
    block.remove();
    try {
      const data = JSON.parse(block.textContent ?? '') as unknown;
      return typeof data === 'object' && data !== null ? toHomePage(data) : null;
    } catch {
      return null;
    }
  },
  release() {
    document.getElementById(PRERENDER_ID)?.remove();
  },
};
