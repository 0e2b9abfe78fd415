import type { PrerenderedHome } from './prerendered';

/** The mini-program has no server-written page. */
export const prerenderedHome: PrerenderedHome = {
  take: () => null,
  release: () => undefined,
};
