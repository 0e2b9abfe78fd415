import { useEffect, useState } from 'react';
import type { useStagedReveal as Use } from './staged-reveal';

/**
 * The first part with the first render, then one more part per macrotask, each scheduled once the previous
 * part is committed: React renders and commits each part (and the browser lays it out) in tasks of its own.
 */
export const useStagedReveal: typeof Use = (total) => {
  const [shown, setShown] = useState(1);
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => setShown((count) => count + 1), 0);
    return () => clearTimeout(timer);
  }, [shown, total]);
  return Math.min(shown, total);
};
