// babel-preset-taro is what Taro's build and the page tests compile the app with.
const taro = { framework: 'react', ts: true, compiler: 'webpack5' };

module.exports = {
  presets: [['taro', taro]],
  overrides: [
    {
      // The messaging SDK is compiled for ES2015 engines, its own target from when the browserslist meant ES5 (it
      // now means ES2018 engines, see package.json and README "Performance"): the mini-program and H5
      // bundles already need ES2015 (socket.io-client and engine.io-client ship classes and arrow functions that no
      // build step lowers, and project.config.json has es6 off), so lowering the SDK's own classes only added
      // about 17 KB to its share of the weapp bundle. Loose: class fields are assigned, as tsconfig's target already
      // means (useDefineForClassFields off), and object spread is Object.assign; 3 KB less.
      // scripts/size.mjs compiles the SDK the same way to measure it.
      test: /[\\/]src[\\/]messaging[\\/]/,
      presets: [['taro', { ...taro, targets: { chrome: '51', ios: '10' }, loose: true }]],
    },
  ],
};
