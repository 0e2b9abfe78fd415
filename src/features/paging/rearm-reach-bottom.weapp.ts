import type { rearmReachBottom as Rearm } from './rearm-reach-bottom';

/** Nothing: a page scrolled by touch passes the positions between the old end and the new one. */
export const rearmReachBottom: typeof Rearm = () => undefined;
