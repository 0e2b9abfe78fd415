/**
 * The product API contract's named types, shared by the app (src/) and the server (server/): each is inferred from
 * its schema in types/schemas/ (the contract map, types/contract.ts, ties every route to them), so there is one
 * declaration of every shape. Requests are the schemas' input (what a client sends: defaults not yet applied),
 * answers their output. Every response body is an `ApiBody`: `status` 200 means success and `data` holds the answer;
 * any other status carries a human-readable `msg` (for 400, it names the offending field) and `data: null`.
 * Money is a number in the shop currency with 2 decimals; times are epoch milliseconds.
 * The login token travels in the `lensmate-token` request header.
 *
 * This module imports the schemas for their types only: the app imports it (and its constants) without zod.
 */
import type { z } from 'zod';
import type {
  API_STATUSES,
  FILTER_TYPES,
  ORDER_STATUSES,
  PAYMENT_PROVIDERS,
  PRISM_BASES,
  TRACK_STATUSES,
} from './constants';
import type * as contract from './contract';
import type * as account from './schemas/account';
import type * as catalog from './schemas/catalog';
import type * as common from './schemas/common';
import type * as config from './schemas/config';
import type * as content from './schemas/content';
import type * as lens from './schemas/lens';
import type * as order from './schemas/order';
import type * as payment from './schemas/payment';
import type * as social from './schemas/social';
import type * as tools from './schemas/tools';
import type * as track from './schemas/track';

export {
  API_STATUSES,
  FILTER_TYPES,
  MAX_CART_LINES,
  ORDER_STATUSES,
  PAYMENT_MESSAGES,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  PRISM_BASES,
  REVIEW_MAX_LENGTH,
  SUPPORT_TEAM_ID,
  TOKEN_HEADER,
  TRACK_STATUSES,
} from './constants';

type Out<T extends z.ZodTypeAny> = z.output<T>;
type In<T extends z.ZodTypeAny> = z.input<T>;

export type ApiStatus = (typeof API_STATUSES)[number];

export interface ApiBody<T> {
  status: ApiStatus;
  msg: string;
  data: T;
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
}

export type PageRequest = In<typeof config.pageRequest>;

/* ---------------------------------------------------------------- catalogue */

export type FilterType = (typeof FILTER_TYPES)[number];
export type Filter = Out<typeof catalog.filter>;
export type Color = Out<typeof catalog.color>;
/** One colour of one frame, an entry of `Goods.color_arr`. */
export type GoodsColor = Out<typeof catalog.goodsColor>;
export type Category = Out<typeof catalog.category>;
export type Goods = Out<typeof catalog.goods>;
/** A frame as get_goods_page and search_page list it: what a list card shows. */
export type GoodsCard = Out<typeof catalog.goodsCard>;
export type GoodsCardColor = Out<typeof catalog.goodsCardColor>;
export type GoodsSort = Out<typeof catalog.goodsSort>;
export type GoodsPageRequest = In<typeof catalog.goodsPageRequest>;
export type SearchPageRequest = In<typeof catalog.searchPageRequest>;
export type GoodsIdRequest = In<typeof catalog.goodsIdRequest>;
export type SaveGoodsRequest = In<typeof catalog.saveGoodsRequest>;
export type UnlistGoodsRequest = In<typeof catalog.unlistGoodsRequest>;
export type SaveTo = (typeof catalog.SAVE_TO)[number];
export type UploadResult = Out<typeof catalog.uploadResult>;

/* ---------------------------------------------------------------- lenses */

export type Lens = Out<typeof catalog.lens>;
export type LensType = Out<typeof catalog.lensType>;
export type LensThickness = Out<typeof catalog.lensThickness>;
export type LensCoating = Out<typeof catalog.lensCoating>;
export type LensColorKind = (typeof catalog.LENS_COLOR_KINDS)[number];
export type LensColor = Out<typeof catalog.lensColor>;
export type PrismPrice = Out<typeof catalog.prismPrice>;
/** The lens options chosen for one cart or order line. */
export type LensChoice = In<typeof lens.lensChoice>;
export type PricedLens = Out<typeof lens.pricedLens>;

/* ---------------------------------------------------------------- accounts, addresses, prescriptions */

export type User = Out<typeof account.user>;
export type LoginResult = Out<typeof account.loginResult>;
export type UserProfile = Out<typeof account.userProfile>;
export type LoginRequest = In<typeof account.loginRequest>;
export type RegisterRequest = In<typeof account.registerRequest>;
export type CheckAccountRequest = In<typeof account.emailRequest>;
export type ForgetPasswordRequest = In<typeof account.emailRequest>;
export type GoogleLoginRequest = In<typeof account.googleLoginRequest>;
export type WechatLogin = Out<typeof account.wechatLogin>;
export type ChangePasswordRequest = In<typeof account.changePasswordRequest>;
export type ChangePasswordWithCodeRequest = In<typeof account.changePasswordWithCodeRequest>;
export type UserShowRequest = In<typeof account.userShowRequest>;

export type Country = Out<typeof config.country>;
export type AddressInput = In<typeof account.addressInput>;
export type Address = Out<typeof account.address>;

export type PrismBase = (typeof PRISM_BASES)[number];
export type EyeRx = Out<typeof account.eyeRx>;
export type PupillaryDistance = Out<typeof account.pupillaryDistance>;
export type PrescriptionInput = In<typeof account.prescriptionInput>;
export type Prescription = Out<typeof account.prescription>;

/* ---------------------------------------------------------------- cart, coupons, shipping */

export type CartLineInput = In<typeof order.cartLineInput>;
/** What `upload_cart` takes, JSON-encoded, in the field `content`. */
export type CartContent = In<typeof order.cartContent>;
export type CartLine = Out<typeof order.cartLine>;
export type Cart = Out<typeof order.cart>;
export type UploadCartRequest = In<typeof order.uploadCartRequest>;

export type CouponKind = Coupon['kind'];
export type Coupon = Out<typeof config.coupon>;
export type RecommendedCoupon = Out<typeof config.recommendedCoupon>;
export type ShippingMethod = Out<typeof config.shippingMethod>;
export type DiscountOption = Out<typeof config.discountOption>;
export type RecommendCouponsRequest = In<typeof config.recommendCouponsRequest>;
export type ShippingMethodRequest = In<typeof config.shippingMethodRequest>;

/* ---------------------------------------------------------------- orders, payments, tracking */

export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type OrderLine = Out<typeof order.orderLine>;
export type Order = Out<typeof order.order>;
export type SubmitOrderRequest = In<typeof order.submitOrderRequest>;
export type OrderListRequest = In<typeof order.orderListRequest>;
export type UpdateOrderStatusRequest = In<typeof order.updateOrderStatusRequest>;
export type OrderIdRequest = In<typeof order.orderIdRequest>;
export type OrderEvent = Out<typeof order.orderEvent>;
export type AdminOrder = Out<typeof order.adminOrder>;
export type AdminOrderDetail = Out<typeof order.adminOrderDetail>;
export type AdminOrderListRequest = In<typeof order.adminOrderListRequest>;

export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export type PaymentStatus = Out<typeof payment.paymentStatus>;
export type StripeSecret = Out<typeof payment.stripeSecret>;
export type PaymentMethods = Out<typeof payment.paymentMethods>;
export type PaymentMethodOffer = Out<typeof payment.paymentMethod>;
export type PaypalOrder = Out<typeof payment.paypalOrder>;
export type PaypalCaptureRequest = In<typeof payment.paypalCaptureRequest>;
export type BraintreeToken = Out<typeof payment.braintreeToken>;
export type WechatPrepay = Out<typeof payment.wechatPrepay>;
export type BraintreeCheckoutRequest = In<typeof payment.braintreeCheckoutRequest>;

export type TrackStatus = (typeof TRACK_STATUSES)[number];
export type TrackEvent = Out<typeof track.trackEvent>;
export type Tracking = Out<typeof track.tracking>;
export type TrackRequest = In<typeof track.trackRequest>;

/* ---------------------------------------------------------------- content */

export type ArticleCategory = Out<typeof content.articleCategory>;
export type ArticleSummary = Out<typeof content.articleSummary>;
export type Article = Out<typeof content.article>;
export type ArticleListRequest = In<typeof content.articleListRequest>;
export type ArticleInput = In<typeof content.articleInput>;
export type ArticleUpdateRequest = In<typeof content.articleUpdateRequest>;
export type ShopConfig = Out<typeof config.shopConfig>;
export type HomeSection = Out<typeof content.homeSection>;
export type HomeBanner = Out<typeof content.homeBanner>;
export type HomePage = Out<typeof content.homePage>;
export type Review = Out<typeof content.review>;
export type ReviewPage = Out<typeof content.reviewPage>;
export type ReviewListRequest = In<typeof content.reviewListRequest>;
export type SaveReviewRequest = In<typeof content.saveReviewRequest>;

/* ---------------------------------------------------------------- try-on, messaging, customer service */

export type DetectedFace = Out<typeof tools.detectedFace>;
export type FaceBox = DetectedFace['box'];
export type TryOnImageRequest = In<typeof tools.tryOnImageRequest>;
export type MessagingToken = Out<typeof tools.messagingToken>;
export type CsAgent = Out<typeof tools.csAgent>;

/* ---------------------------------------------------------------- social */

export type UserCard = Out<typeof social.userCard>;
export type SocialProfile = Out<typeof social.socialProfile>;
export type FollowResult = Out<typeof social.followResult>;
export type SocialImage = Out<typeof social.socialImage>;
export type Album = Out<typeof social.album>;
export type AlbumDetail = Out<typeof social.albumDetail>;
export type Tag = Out<typeof social.tag>;
export type LikeKind = (typeof social.LIKE_KINDS)[number];
export type CollectKind = (typeof social.COLLECT_KINDS)[number];
export type Comment = Out<typeof social.comment>;
export type SocialGroup = Out<typeof social.socialGroup>;
export type NoticeKind = (typeof social.NOTICE_KINDS)[number];
export type Notice = Out<typeof social.notice>;
export type UserIdRequest = In<typeof social.userIdRequest>;
export type UserListRequest = In<typeof social.userListRequest>;
export type UserSearchRequest = In<typeof social.userSearchRequest>;
export type UpdateProfileRequest = In<typeof social.updateProfileRequest>;
export type AlbumInput = In<typeof social.albumInput>;
export type AddImagesRequest = In<typeof social.addImagesRequest>;
export type TagImagesRequest = In<typeof social.tagImagesRequest>;
export type TagImageRequest = In<typeof social.tagImageRequest>;
export type TargetRequest = In<typeof social.targetRequest>;
export type CollectRequest = In<typeof social.collectRequest>;
export type CommentListRequest = In<typeof social.commentListRequest>;
export type AddCommentRequest = In<typeof social.addCommentRequest>;
export type CreateGroupRequest = In<typeof social.createGroupRequest>;
export type GroupIdRequest = In<typeof social.groupIdRequest>;
export type NoticeRequest = In<typeof social.noticeRequest>;

/** The `data` of a route's success, by its contract key (e.g. `ResponseOf<'POST /api/order/submit_order'>`). */
export type ResponseOf<K extends contract.ContractRoute> = contract.ResponseOf<K>;
/** What a route takes, by its contract key. */
export type RequestOf<K extends contract.ContractRoute> = contract.RequestOf<K>;

/** A `{status, msg, data}` refusal body. */
export type Refusal = Out<typeof common.refusal>;
