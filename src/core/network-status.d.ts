/**
 * The platform's network status, one file per platform: `network-status.h5.ts` (navigator.onLine and the
 * window's online/offline events) and `network-status.weapp.ts` (getNetworkType and onNetworkStatusChange).
 * Calls `report` with the status now and with each change.
 */
export declare function watchNetworkStatus(report: (online: boolean) => void): void;
