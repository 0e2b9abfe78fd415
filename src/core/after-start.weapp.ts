import type { afterStart as AfterStart } from './after-start';

export const afterStart: typeof AfterStart = (work) => {
  work();
};
