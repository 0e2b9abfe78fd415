import type { ComponentType } from 'react';

/**
 * The offline banner as the app shell shows it, one file per platform: on H5 the banner over every page (the
 * app renders beside its pages); in the mini-program, where the app renders no view of its own, a toast that
 * stays while offline.
 */
export declare const AppOfflineBanner: ComponentType;
