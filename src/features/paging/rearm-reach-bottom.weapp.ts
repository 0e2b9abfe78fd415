import type { rearmReachBottom as Rearm } from './rearm-reach-bottom';

/** WeChat arms onReachBottom again as the page grows: nothing to do. */
export const rearmReachBottom: typeof Rearm = () => undefined;
