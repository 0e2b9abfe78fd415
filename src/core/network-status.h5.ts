import type { watchNetworkStatus as Watch } from './network-status';

export const watchNetworkStatus: typeof Watch = (report) => {
  report(navigator.onLine !== false);
  window.addEventListener('online', () => report(true));
  window.addEventListener('offline', () => report(false));
};
