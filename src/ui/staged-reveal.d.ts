/**
 * How many of a page's `total` parts to draw now, one file per platform. On H5 (staged-reveal.h5.ts) the first
 * part comes with the page's first render and each further part in a task of its own after the previous one is
 * on screen, so no single task of the page's start is long (issue 23: Total Blocking Time); the parts come in
 * a few frames, well before anyone scrolls to them. The mini-program (staged-reveal.weapp.ts) draws every part
 * at once, in the page's first setData, as before.
 *
 * Parts are drawn in order and never taken back; a larger `total` (more data) goes on from where it was.
 */
export declare function useStagedReveal(total: number): number;
