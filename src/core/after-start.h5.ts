import type { afterStart as AfterStart } from './after-start';

export const afterStart: typeof AfterStart = (work) => {
  setTimeout(work, 0);
};
