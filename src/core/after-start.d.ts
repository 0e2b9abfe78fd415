/**
 * Runs `work` once the app's start is over, one file per platform. On H5 (after-start.h5.ts) each call runs in a
 * task of its own after the one that made it, so that work an app does at launch (a toast, a request) is not
 * added to the start's own long task (issue 23: Total Blocking Time). The mini-program (after-start.weapp.ts)
 * runs it at once, as before.
 */
export declare function afterStart(work: () => void): void;
