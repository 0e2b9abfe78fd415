// Taro's H5 runtime reads these at import time: without TARO_ENV page lifecycles crash
// ("reading 'onLoad'"); requiring @tarojs/taro early breaks the router's import cycle.
process.env.TARO_ENV = 'h5';
process.env.TARO_PLATFORM = 'web';
require('@tarojs/taro');
