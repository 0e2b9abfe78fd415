/**
 * Pages and subpackages. The main package holds the tab pages, login and the shop; every other
 * area is a subpackage so that no package can pass WeChat's 2 MB cap as pages are added
 * (see README "Package plan"). A route is registered by the work that builds its page.
 */
export default defineAppConfig({
  pages: ['pages/index/index', 'pages/mine/index/mine', 'pages/login/login'],
  subPackages: [],
  window: {
    backgroundTextStyle: 'light',
    navigationBarBackgroundColor: '#ffffff',
    navigationBarTitleText: 'Lensmate',
    navigationBarTextStyle: 'black',
  },
  tabBar: {
    custom: true,
    color: '#7a7e83',
    selectedColor: '#1a1a2e',
    backgroundColor: '#ffffff',
    list: [
      { pagePath: 'pages/index/index', text: 'Home' },
      { pagePath: 'pages/mine/index/mine', text: 'Mine' },
    ],
  },
  networkTimeout: {
    request: 60000,
    connectSocket: 60000,
    uploadFile: 60000,
    downloadFile: 60000,
  },
});
