import type { HomePage } from './api';

/**
 * The first screen the server prerendered for home, one file per platform. On H5 (prerendered.h5.ts) the
 * server writes home's data into the page as a JSON data block (`<script type="application/json">`, never run)
 * beside the prerendered markup (server/prerender/home.ts); the app starts home from that data instead of
 * asking again, and removes the prerendered markup once its own home is on screen. The mini-program has no
 * server-written page (prerendered.weapp.ts): nothing is there.
 */
export interface PrerenderedHome {
  /** The data the server rendered the first screen from, once (later calls get null); null when none was written. */
  take(): HomePage | null;
  /** Removes the prerendered markup; the app's home stands in its place. */
  release(): void;
}

export declare const prerenderedHome: PrerenderedHome;
