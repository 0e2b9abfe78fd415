/** The app's routes (shop-app.md §2). A page is registered in app.config.ts by the work that builds it. */

export const HOME_PAGE = '/pages/index/index';
export const LOGIN_PAGE = '/pages/login/login';
export const MINE_PAGE = '/pages/mine/index/mine';
export const USER_REVIEW_PAGE = '/pages/userReview/index';
export const SEARCH_PAGE = '/pages/index/search/search';

/** The named navigation targets. */
export const NAMED_TARGETS = {
  login: LOGIN_PAGE,
  shipment: '/pages/order/shipment/shipment',
  index: HOME_PAGE,
  cart: '/pages/order/cart/cart',
  addressList: '/pages/order/address/address-list',
  myPrescriptionList: '/pages/order/prescription/my-prescription-list',
  placeOrder: '/pages/order/place-order/place-order',
  orderList: '/pages/order/order-list/order-list-main',
  orderDetail: '/pages/order/order-detail/order-detail',
  mine: MINE_PAGE,
  userBasic: '/pages/mine/basic/user-basic',
  changePassword: '/pages/mine/basic/change-pwd',
  admin: '/pages/admin/edit-list',
} as const;

export type NamedTarget = keyof typeof NAMED_TARGETS;

/** Reached by tab switch, never with a query. */
export const TAB_PAGES: readonly string[] = [HOME_PAGE, MINE_PAGE, USER_REVIEW_PAGE];

/** Pages that need a stored login token: Mine, cart, orders, addresses and prescriptions (§6). */
export const PROTECTED_PAGES: readonly string[] = [
  MINE_PAGE,
  NAMED_TARGETS.cart,
  NAMED_TARGETS.placeOrder,
  NAMED_TARGETS.orderList,
  NAMED_TARGETS.orderDetail,
  NAMED_TARGETS.addressList,
  NAMED_TARGETS.myPrescriptionList,
];

/** '/' is the home page's alias on H5; paths are compared with a leading slash and no query. */
export function normalizePath(path: string): string {
  const bare = path.split('?')[0].replace(/\/+$/, '');
  if (bare === '') return HOME_PAGE;
  return bare.startsWith('/') ? bare : `/${bare}`;
}

export function isTabPage(path: string): boolean {
  return TAB_PAGES.includes(normalizePath(path));
}

export function isProtectedPage(path: string): boolean {
  return PROTECTED_PAGES.includes(normalizePath(path));
}
