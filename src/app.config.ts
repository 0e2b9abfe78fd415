/**
 * Pages and subpackages. The main package holds the tab pages, login and the shop; every other
 * area is a subpackage so that no package can pass WeChat's 2 MB cap as pages are added
 * (see README "Package plan"). A route is registered by the work that builds its page.
 */
export default defineAppConfig({
  pages: [
    'pages/index/index',
    'pages/mine/index/mine',
    'pages/login/login',
    'pages/login/findPassword',
    'pages/product/product-list-main',
    'pages/product/product',
    'pages/product/lens-type/lens-type',
    'pages/product/prescription/prescription',
    'pages/product/lens/lens',
    'pages/index/search/search',
    'pages/index/search/searchList',
    'pages/index/detail/detail',
    'pages/category/category',
    'pages/category/categoryList/categoryList',
    'pages/userReview/index',
    'pages/order/cart/cart',
    'pages/order/address/address-list',
    'pages/order/place-order/place-order',
    'pages/order/shipment/shipment',
    'pages/order/payment/payment',
  ],
  subPackages: [
    // After the purchase: each in the folder it always had, so its path is unchanged.
    { root: 'pages/order/order-list', pages: ['order-list-main'] },
    { root: 'pages/order/order-detail', pages: ['order-detail'] },
    { root: 'pages/order/prescription', pages: ['my-prescription-list'] },
    { root: 'pages/regist', pages: ['regist'] },
    { root: 'pages/setting', pages: ['setting', 'updatePossword/updatePossword'] },
    { root: 'pages/mine/basic', pages: ['user-basic', 'change-pwd'] },
    {
      root: 'pages/admin',
      pages: ['edit-list', 'product-edit', 'article-edit', 'cs-agents', 'orders', 'order-detail'],
    },
    { root: 'pages/article', pages: ['article'] },
    { root: 'pages/addarticle', pages: ['addarticle-main', 'addarticle-next', 'preview'] },
    {
      root: 'pages/user',
      pages: [
        'user',
        'trends/trends',
        'info/info',
        'info/updateImg/updateImg',
        'info/updateInfo/updateInfo',
        'allUser/allUser',
        'albums/albums',
        'albums/albumInfo',
        'albums/createalbum',
        'collections/collections',
        'collections/collectionAlbums/collectionAlbums',
        'collections/collectionImgs/collectionImgs',
      ],
    },
    { root: 'pages/addalbum', pages: ['addalbum'] },
    { root: 'pages/addtag', pages: ['addtag'] },
    { root: 'pages/tagImgList', pages: ['tagImgList'] },
    { root: 'pages/addfriend', pages: ['addfriend'] },
    { root: 'pages/history', pages: ['history'] },
    { root: 'pages/push', pages: ['push'] },
    { root: 'pages/main', pages: ['main'] },
    {
      root: 'pages/message',
      pages: [
        'message',
        'message2',
        'message-agrees',
        'message-followers',
        'message-comments',
        'privateChat/privateChat',
      ],
    },
    { root: 'pages/group', pages: ['group'] },
    { root: 'pages/groupChat', pages: ['groupChat'] },
    { root: 'pages/chat', pages: ['chat', 'chat2'] },
    { root: 'pages/location', pages: ['choose-location', 'open-location'] },
    { root: 'pages/tryon', pages: ['tryon'] },
  ],
  window: {
    backgroundTextStyle: 'light',
    navigationBarBackgroundColor: '#ffffff',
    navigationBarTitleText: 'Lensmate',
    navigationBarTextStyle: 'black',
  },
  // custom: the middle admin button is not a page. weapp draws src/custom-tab-bar; Taro 4.2's H5 router
  // renders no custom tab bar, so there each tab page renders the same TabBar (src/ui/tab-bar/PageTabBar.h5.tsx).
  tabBar: {
    custom: true,
    color: '#7a7e83',
    selectedColor: '#1a1a2e',
    backgroundColor: '#ffffff',
    list: [
      { pagePath: 'pages/index/index', text: 'Home' },
      { pagePath: 'pages/mine/index/mine', text: 'Mine' },
      { pagePath: 'pages/userReview/index', text: 'Reviews' },
    ],
  },
  networkTimeout: {
    request: 60000,
    connectSocket: 60000,
    uploadFile: 60000,
    downloadFile: 60000,
  },
});
