// babel-preset-taro is what Taro's build and the page tests compile the app with.
const taro = { framework: 'react', ts: true, compiler: 'webpack5' };

module.exports = {
  presets: [['taro', taro]],
  overrides: [
    {
      // The messaging SDK is compiled for the app's own browserslist (package.json: iOS 12, Chrome and Android
      // WebView 64, WeChat's floor), as the rest of the bundle is: async functions stay native instead of becoming
      // generators behind a helper. It once had its own ES2015 target (Chrome 51, iOS 10), from when the browserslist
      // meant ES5; the app around it already needs the newer engines, so that only cost the SDK 1.8 KB of its
      // 60 KB budget. Loose: class fields are assigned, as tsconfig's target already means
      // (useDefineForClassFields off). scripts/size.mjs compiles the SDK the same way to measure it.
      test: /[\\/]src[\\/]messaging[\\/]/,
      presets: [['taro', { ...taro, loose: true }]],
    },
  ],
};
