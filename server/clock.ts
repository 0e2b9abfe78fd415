/**
 * Date.now that never repeats or goes back within the process: two writes in the same millisecond get
 * times one apart, so "newest first" (reviews, messages) follows the order they were written in.
 */
export function monotonicClock(): () => number {
  let last = 0;
  return () => {
    const now = Date.now();
    last = now > last ? now : last + 1;
    return last;
  };
}
