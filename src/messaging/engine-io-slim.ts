/**
 * The engine.io-client the app bundles get (config/index.ts `alias`, mirrored in scripts/size.mjs): the same
 * modules as the package entry minus the built-in transports. The SDK always hands engine.io its own transport
 * classes (transport.ts: Taro.connectSocket, and Taro.request polling), so XHR polling, the browser WebSocket
 * and WebTransport are never constructed; importing them would still ship them (their modules have top-level
 * side effects, so no bundler drops them). Tests and Node use the real entry; the e2e suites run this one.
 */
export { Socket } from '../../node_modules/engine.io-client/build/esm/socket.js';
export { Transport, TransportError } from '../../node_modules/engine.io-client/build/esm/transport.js';
export { installTimerFunctions } from '../../node_modules/engine.io-client/build/esm/util.js';
export { parse } from '../../node_modules/engine.io-client/build/esm/contrib/parseuri.js';
export { nextTick } from '../../node_modules/engine.io-client/build/esm/globals.js';
export { Fetch } from '../../node_modules/engine.io-client/build/esm/transports/polling-fetch.js';
export { protocol } from 'engine.io-parser';
export { transports } from './engine-io-no-transports';
/** Named by the package entry (socket.io-client re-exports them) but left out of the bundle. */
export const XHR = undefined;
export const NodeXHR = undefined;
export const WebSocket = undefined;
export const NodeWebSocket = undefined;
export const WebTransport = undefined;
