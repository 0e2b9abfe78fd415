/**
 * Stands in for `@tarojs/components/dist/components` where Taro's H5 router imports it: the router only defines
 * its `taro-tabbar` web component when the app's tabBar is not custom, and ours is custom (app.config.ts). The real
 * import pulled the whole Stencil runtime into the first load.
 */
export function defineCustomElementTaroTabbar() {
  throw new Error('taro-tabbar is not bundled: tabBar.custom must stay true in src/app.config.ts');
}
