import type { useStagedReveal as Use } from './staged-reveal';

export const STAGE_DELAY_MS = 0;

/** Every part at once: the page's first setData carries it all, as it did before parts were staged on H5. */
export const useStagedReveal: typeof Use = (total) => total;
