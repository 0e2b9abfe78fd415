/**
 * Stands in for engine.io-client's `transports/index.js` in the app bundles (see engine-io-slim.ts): the map of
 * built-in transports an engine.io `Socket` falls back to when given transport names instead of classes. The SDK
 * always passes classes, so the map is empty.
 */
export const transports: Record<string, never> = {};
