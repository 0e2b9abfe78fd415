// Taro's H5 runtime reads these at import time: without TARO_ENV page lifecycles crash
// ("reading 'onLoad'"); requiring @tarojs/taro early breaks the router's import cycle.
process.env.TARO_ENV = 'h5';
process.env.TARO_PLATFORM = 'web';
require('@tarojs/taro');
// The test transformer compiles JSX to React.createElement (classic runtime); Taro's build provides React
// to every module the same way, so the app's files do not import it.
global.React = require('react');
// jsdom has no layout and no IntersectionObserver; Taro's lazy <Image> needs one. With no layout, every
// observed element counts as visible, as on a tall screen.
if (typeof global.IntersectionObserver === 'undefined') {
  global.IntersectionObserver = class {
    constructor(callback) {
      this.callback = callback;
    }
    observe(target) {
      this.callback([{ target, isIntersecting: true, intersectionRatio: 1 }], this);
    }
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  };
}
