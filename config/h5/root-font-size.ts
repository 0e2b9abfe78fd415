/**
 * The H5 root font-size, from one set of constants: the build's design width and device ratios, the rem unit
 * postcss-pxtransform converts the styles' px into, and the rule that gives the page its root font-size.
 *
 * Taro's H5 build writes an inline script into index.html that sets `html { font-size }` to
 * `rootValue * w / designWidth` (rootValue = baseFontSize / deviceRatio[designWidth] * 2, clamped to
 * [minRootSize, maxRootSize]), w being the smaller of the html element's width and height. It runs again on
 * every resize event, and Chromium fires one early in the load of a phone-sized page, while the html element is
 * still 8 px high (an empty app mount, or home's prerendered layer, which is absolutely placed): the root fell to
 * the 20 px floor, and 500 ms later (the script's second pass) rose to its true value (21.97 px at Lighthouse's
 * 412 px phone), and every block sized in rem moved: the layout shifts of issue 23 (0.09 on home, 0.2 on the
 * product page). The same value is now a stylesheet rule in index.html's <head> (see src/index.html), from the
 * viewport's width alone, so the first paint already has it, no script computes it and a resize needs no script.
 */

/** The width, in design px, the styles are written for. */
export const DESIGN_WIDTH = 750;

/** Taro's device ratios (design width to rpx factor), as `taro init` writes them. */
export const DEVICE_RATIO: Record<number, number> = {
  640: 2.34 / 2,
  750: 1,
  375: 2,
  828: 1.81 / 2,
};

/** postcss-pxtransform's rem options for H5 (Taro's defaults, written out so the rule below follows them). */
export const ROOT_FONT = { baseFontSize: 20, minRootSize: 20, maxRootSize: 40 } as const;

/** Design px per rem: what postcss-pxtransform divides by (and Taro's script multiplies the width by). */
export const REM_DESIGN_PX = (ROOT_FONT.baseFontSize / DEVICE_RATIO[DESIGN_WIDTH]) * 2;

/** The root font-size Taro's formula gives a viewport `width` CSS px wide, in px. */
export function rootFontSizeFor(width: number): number {
  const size = (REM_DESIGN_PX * width) / DESIGN_WIDTH;
  return Math.min(ROOT_FONT.maxRootSize, Math.max(ROOT_FONT.minRootSize, size));
}

/** Up to 6 decimals, without trailing zeros. */
function decimal(value: number): string {
  return String(Number(value.toFixed(6)));
}

/**
 * The CSS rule of the root font-size: `rootFontSizeFor(100vw)` as a vw length between two media queries (the
 * floor below, the ceiling above), which every browser of the browserslist reads (clamp() needs Chrome 79).
 */
export function rootFontSizeCss(): string {
  const floorWidth = (ROOT_FONT.minRootSize * DESIGN_WIDTH) / REM_DESIGN_PX;
  const ceilingWidth = (ROOT_FONT.maxRootSize * DESIGN_WIDTH) / REM_DESIGN_PX;
  const vw = (REM_DESIGN_PX * 100) / DESIGN_WIDTH;
  return (
    `html{font-size:${decimal(vw)}vw}` +
    `@media (max-width:${decimal(floorWidth)}px){html{font-size:${ROOT_FONT.minRootSize}px}}` +
    `@media (min-width:${decimal(ceilingWidth)}px){html{font-size:${ROOT_FONT.maxRootSize}px}}`
  );
}
