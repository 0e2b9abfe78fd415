import type { useStagedReveal as Use } from './staged-reveal';

/** Every part at once: the page's first setData carries it all, as it did before parts were staged on H5. */
export const useStagedReveal: typeof Use = (total) => total;
