import type { ComponentType } from 'react';

/**
 * The offline banner as the app shell shows it, one file per platform: on H5 a banner over every page (an element
 * of the document's body: the app's own root holds the router's pages, which an extra child would replace); in
 * the mini-program, where the app renders no view of its own, a toast that stays while offline. Renders nothing
 * in the app's tree either way.
 */
export declare const AppOfflineBanner: ComponentType;
