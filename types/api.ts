/**
 * The product API contract shared by the app (src/) and the server (server/).
 * Every response body is an `ApiBody`: `status` 200 means success and `data` holds the answer;
 * any other status carries a human-readable `msg` (for 400, it names the offending field).
 * Money is a number in the shop currency with 2 decimals; times are epoch milliseconds.
 * The login token travels in the `lensmate-token` request header.
 */

import type { z } from 'zod';
import type { FILTER_TYPES, ORDER_STATUSES, PAYMENT_PROVIDERS, PRISM_BASES, TRACK_STATUSES } from './constants';
import type * as lensSchemas from './schemas/lens';
import type * as orderSchemas from './schemas/order';
import type * as paymentSchemas from './schemas/payment';
import type * as trackSchemas from './schemas/track';
import type * as userSchemas from './schemas/user';

export {
  FILTER_TYPES,
  MAX_CART_LINES,
  ORDER_STATUSES,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  PRISM_BASES,
  SUPPORT_TEAM_ID,
  TOKEN_HEADER,
  TRACK_STATUSES,
} from './constants';

export type ApiStatus = 200 | 400 | 401 | 403 | 404 | 409 | 429 | 503;

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

export interface PageRequest {
  /** 1-based. */
  page?: number;
  /** 1 to 100, default 20. */
  page_size?: number;
}

export type Empty = Record<string, never>;

/* ---------------------------------------------------------------- catalogue */

export type FilterType = (typeof FILTER_TYPES)[number];

export interface Filter {
  filter_id: number;
  filter_name: string;
  filter_img: string;
  type: FilterType;
}

export interface Color {
  color_id: number;
  color_name: string;
  /** A swatch image URL. */
  color_img: string;
  /** CSS colour of the swatch, e.g. `#1f2937`. */
  color_value: string;
}

/** One colour of one frame, an entry of `Goods.color_arr`. */
export interface GoodsColor {
  color_id: number;
  color_name: string;
  color_img: string;
  color_value: string;
  goods_color_img: string[];
  /** null: not tracked (always available). */
  stock: number | null;
}

export interface Category {
  category_id: number;
  category_name: string;
  category_img: string;
}

export interface Goods {
  goods_id: number;
  goods_name: string;
  goods_img: string;
  goods_desc: string;
  shop_price: number;
  /** Stored percent-of-price factor: 80 means the shopper pays 80 %. */
  discount: number;
  /** `shop_price × discount / 100`, computed by the server. */
  final_price: number;
  /** What the app shows as the discount: `100 − discount`. */
  shown_discount: number;
  category_id: number | null;
  filters: Filter[];
  color_arr: GoodsColor[];
  lens_width: number;
  bridge_width: number;
  temple_length: number;
  /** false once unlisted: hidden from shoppers, kept for existing orders. */
  is_on_sale: boolean;
  created_at: number;
}

/* ---------------------------------------------------------------- lenses */

export interface Lens {
  lens_id: number;
  lens_type_id: number;
  name: string;
  description: string;
  price: number;
}

export interface LensType {
  lens_type_id: number;
  name: string;
  description: string;
  price: number;
  /** false for frame-only / plano lenses: no prescription is asked for. */
  needs_prescription: boolean;
  /** Progressive and reading lenses need the ADD value. */
  needs_add: boolean;
  lenses: Lens[];
}

export interface LensThickness {
  thickness_id: number;
  /** Refractive index, e.g. 1.61. */
  index: number;
  name: string;
  description: string;
  price: number;
}

export interface LensCoating {
  coating_id: number;
  name: string;
  description: string;
  price: number;
}

export type LensColorKind = 'clear' | 'tint' | 'photochromic' | 'polarized';

export interface LensColor {
  lens_color_id: number;
  name: string;
  color_value: string;
  kind: LensColorKind;
  price: number;
}

export interface PrismPrice {
  /** Added once per pair when either eye has a prism. */
  price: number;
}

/** The lens options chosen for one cart or order line. */
export type LensChoice = z.input<typeof lensSchemas.lensChoice>;

/* ---------------------------------------------------------------- prescriptions */

export type PrismBase = (typeof PRISM_BASES)[number];
export type EyeRx = z.infer<typeof userSchemas.eyeRx>;
export type PupillaryDistance = z.infer<typeof userSchemas.pupillaryDistance>;

export interface PrescriptionInput {
  name: string;
  /** Right eye (oculus dexter). */
  od: EyeRx;
  /** Left eye (oculus sinister). */
  os: EyeRx;
  pd: PupillaryDistance;
  /** A photo of the paper prescription, uploaded with save_to MYPRESCRIPTION. */
  image_url?: string | null;
  note?: string;
}

export type Prescription = z.infer<typeof userSchemas.prescription>;

/* ---------------------------------------------------------------- users and addresses */

export type User = {
  user_id: number;
  email: string;
  nickname: string;
  avatar: string;
  bio: string;
  is_admin: boolean;
  created_at: number;
};

export type LoginResult = User & { token: string };

export interface Country {
  country_code: string;
  name: string;
  phone_code: string;
}

export interface AddressInput {
  /** Present to update an existing address. */
  address_id?: number;
  first_name: string;
  last_name: string;
  phone: string;
  country_code: string;
  province: string;
  city: string;
  street: string;
  street2?: string;
  zip: string;
  is_default?: boolean;
}

export type Address = z.infer<typeof userSchemas.address>;

/* ---------------------------------------------------------------- cart */

export type CartLineInput = z.input<typeof orderSchemas.cartLineInput>;
/** What `upload_cart` takes, JSON-encoded, in the field `content`. */
export type CartContent = z.input<typeof orderSchemas.cartContent>;
export type PricedLens = z.infer<typeof lensSchemas.pricedLens>;
export type CartLine = z.infer<typeof orderSchemas.cartLine>;
export type Cart = z.infer<typeof orderSchemas.cart>;

/* ---------------------------------------------------------------- coupons, shipping */

export type CouponKind = 'amount' | 'percent';

export interface Coupon {
  coupon_id: number;
  code: string;
  title: string;
  kind: CouponKind;
  /** Money off for `amount`; percent off (1…100) for `percent`. */
  value: number;
  /** The minimum subtotal. */
  threshold: number;
  valid_from: number;
  valid_until: number;
}

export interface RecommendedCoupon extends Coupon {
  /** What the coupon takes off the given subtotal. */
  saving: number;
}

export interface ShippingMethod {
  shipping_method_id: number;
  name: string;
  description: string;
  /** The price for the given subtotal (0 at or above `free_threshold`). */
  price: number;
  base_price: number;
  free_threshold: number | null;
  min_days: number;
  max_days: number;
}

export interface DiscountOption {
  discount: number;
  shown_discount: number;
  goods_count: number;
}

/* ---------------------------------------------------------------- orders, payments, tracking */

export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type OrderLine = z.infer<typeof orderSchemas.orderLine>;
export type Order = z.infer<typeof orderSchemas.order>;

export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export type PaymentStatus = z.infer<typeof paymentSchemas.paymentStatus>;

export type TrackStatus = (typeof TRACK_STATUSES)[number];
export type TrackEvent = z.infer<typeof trackSchemas.trackEvent>;
export type Tracking = z.infer<typeof trackSchemas.tracking>;

/* ---------------------------------------------------------------- content */

export interface ArticleCategory {
  category_id: number;
  category_name: string;
}

export interface ArticleSummary {
  article_id: number;
  title: string;
  cover: string;
  imgsUrl: string[];
  category_id: number | null;
  author: { user_id: number; nickname: string; avatar: string } | null;
  created_at: number;
  updated_at: number;
}

export interface Article extends ArticleSummary {
  /** Sanitized HTML. */
  content: string;
}

export interface ShopConfig {
  shop_name: string;
  shop_logo: string;
  currency: string;
  currency_symbol: string;
  service_email: string;
  app_version: string;
  google_client_id: string;
  stripe_publishable_key: string;
}

export interface HomeSection {
  /** The Tag filter the section shows. */
  id: number;
  title: string;
  cover: string;
  goods: Goods[];
}

export interface HomeBanner {
  image: string;
  title: string;
  /** An app route with its query, e.g. `/pages/product/product?id=3`. */
  link: string;
}

export interface HomePage {
  banners: HomeBanner[];
  categories: Category[];
  sections: HomeSection[];
  articles: ArticleSummary[];
}

export interface UploadResult {
  url: string;
  file_name: string;
  kind: 'image' | 'video';
}

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** In image pixels; `left_eye` is the eye on the image's left (the person's right eye). */
export interface DetectedFace {
  box: FaceBox;
  left_eye: { x: number; y: number };
  right_eye: { x: number; y: number };
  score: number;
}

/* ---------------------------------------------------------------- requests */

export type UploadCartRequest = z.input<typeof orderSchemas.uploadCartRequest>;
export type SubmitOrderRequest = z.input<typeof orderSchemas.submitOrderRequest>;
export type OrderListRequest = z.input<typeof orderSchemas.orderListRequest>;
export type UpdateOrderStatusRequest = z.input<typeof orderSchemas.updateOrderStatusRequest>;
export type OrderIdRequest = z.input<typeof orderSchemas.orderIdRequest>;
export type StripeSecret = z.infer<typeof paymentSchemas.stripeSecret>;
export type SandboxCardRequest = z.input<typeof paymentSchemas.sandboxCardRequest>;
export type PaypalOrder = z.infer<typeof paymentSchemas.paypalOrder>;
export type PaypalCaptureRequest = z.input<typeof paymentSchemas.paypalCaptureRequest>;
export type BraintreeToken = z.infer<typeof paymentSchemas.braintreeToken>;
export type BraintreeCheckoutRequest = z.input<typeof paymentSchemas.braintreeCheckoutRequest>;
export type TrackRequest = z.input<typeof trackSchemas.trackRequest>;

export interface LoginRequest {
  email: string;
  password: string;
}
export interface RegisterRequest {
  email: string;
  /** 8 to 128 characters with a letter and a digit. */
  password: string;
  nickname?: string;
}
export interface CheckAccountRequest {
  email: string;
}
export interface ForgetPasswordRequest {
  email: string;
}
export interface GoogleLoginRequest {
  id_token: string;
}
export interface ChangePasswordRequest {
  old_password: string;
  new_password: string;
}
export interface ChangePasswordWithCodeRequest {
  email: string;
  /** The 6-digit code mailed by forget_password (valid 15 minutes, 5 attempts). */
  code: string;
  new_password: string;
}
export interface IdRequest {
  id: number;
}
export interface UserShowRequest {
  /** Absent: the signed-in user. */
  user_id?: number;
}
export interface UserProfile {
  user_id: number;
  nickname: string;
  avatar: string;
  bio: string;
  is_admin: boolean;
}

export interface ArticleListRequest extends PageRequest {
  category_id?: number;
  keyword?: string;
}
export interface ArticleInput {
  title: string;
  cover: string;
  imgsUrl: string[];
  content: string;
  category_id?: number | null;
}
export interface ArticleUpdateRequest extends ArticleInput {
  article_id: number;
}

export type GoodsSort = 'newest' | 'price_asc' | 'price_desc' | 'discount';

export interface GoodsPageRequest extends PageRequest {
  /** Frames having any of these colours. */
  color_ids?: number[];
  /** OR within one filter type, AND across types. */
  filter_ids?: number[];
  category_id?: number;
  sort?: GoodsSort;
  /** Admin only: include unlisted frames. */
  include_unlisted?: boolean;
}
export interface SearchPageRequest extends PageRequest {
  keyword: string;
  sort?: GoodsSort;
}
export interface GoodsIdRequest {
  goods_id: number;
}
export interface SaveGoodsRequest {
  /** Absent: create. */
  goods_id?: number;
  goods_name: string;
  goods_img: string;
  goods_desc?: string;
  shop_price: number;
  /** 1 to 100. */
  discount: number;
  category_id?: number | null;
  filter_ids: number[];
  color_arr: { color_id: number; goods_color_img: string[]; stock?: number | null }[];
  lens_width?: number;
  bridge_width?: number;
  temple_length?: number;
  is_on_sale?: boolean;
}
export interface UnlistGoodsRequest {
  goods_id: number;
  /** false puts the frame back on sale. */
  unlisted?: boolean;
}
export type SaveTo = 'MYPRESCRIPTION' | 'GOODS' | 'ARTICLE' | 'AVATAR';

export interface RecommendCouponsRequest {
  subtotal: number;
}
export interface ShippingMethodRequest {
  subtotal?: number;
  country_code?: string;
}

export interface TryOnImageRequest {
  file_name: string;
  /** Raw base64 or a data: URL of a jpg, png or webp image. */
  image_base64: string;
}
export interface MessagingToken {
  otp: string;
  userId: string;
}

/** A user the shop made an agent of a customer-service team (admin only). */
export interface CsAgent {
  user_id: number;
  email: string;
  nickname: string;
  avatar: string;
  /** Online for the team on the messaging server now. */
  online: boolean;
  assigned_at: number;
}

/* ---------------------------------------------------------------- endpoint map */

/** A shopper's review of a frame: one per shopper and frame, written again to change it. */
export interface Review {
  review_id: number;
  goods_id: number;
  goods_name: string;
  goods_img: string;
  /** 1 to 5 stars. */
  rating: number;
  content: string;
  author: { user_id: number; nickname: string; avatar: string };
  created_at: number;
  /** true for the signed-in shopper's own review. */
  mine: boolean;
}

export interface ReviewPage extends Page<Review> {
  /** The mean rating of every review matched, to one decimal; null without reviews. */
  average: number | null;
}

export interface ReviewListRequest {
  page?: number;
  page_size?: number;
  /** Absent: the newest reviews of every frame. */
  goods_id?: number;
}

export interface SaveReviewRequest {
  goods_id: number;
  rating: number;
  content: string;
}

export interface ReviewEndpoints {
  'POST /api/review/get_reviews': [ReviewListRequest, ReviewPage];
  'POST /api/review/save_review': [SaveReviewRequest, Review];
}

/** Every endpoint: method, request body (GET: query) and `data` of the answer. */
export interface Endpoints {
  'POST /api/auth/login': [LoginRequest, LoginResult];
  'POST /api/auth/register': [RegisterRequest, LoginResult];
  'POST /api/auth/check_account': [CheckAccountRequest, { exists: boolean }];
  'POST /api/auth/forget_password': [ForgetPasswordRequest, { sent: true }];
  'POST /api/auth/logout': [Empty, { logged_out: true }];
  'POST /api/google/google_login': [GoogleLoginRequest, LoginResult];
  'POST /api/user/change_password': [ChangePasswordRequest, LoginResult];
  'POST /api/user/change_password_with_verification_code': [ChangePasswordWithCodeRequest, { changed: true }];
  'POST /api/user/get_user_address': [Empty, Address[]];
  'POST /api/user/set_user_address': [AddressInput, Address];
  'POST /api/user/delete_user_address': [{ address_id: number }, { deleted: true }];
  'GET /api/user/get_my_prescription': [Empty, Prescription[]];
  'POST /api/user/delete_my_prescription': [{ prescription_id: number }, { deleted: true }];
  'POST /api/user/user_show': [UserShowRequest, UserProfile & Partial<User>];
  'GET /api/article/get_article': [IdRequest, Article];
  'GET /api/article/get_article_category': [Empty, ArticleCategory[]];
  'POST /api/article/get_article_list': [ArticleListRequest, Page<ArticleSummary>];
  'POST /api/article/insert_article': [ArticleInput, Article];
  'POST /api/article/update_article': [ArticleUpdateRequest, Article];
  'POST /api/article/delete_article': [{ article_id: number }, { deleted: true }];
  'POST /api/goods/get_goods_by_id': [GoodsIdRequest, Goods];
  'POST /api/goods/get_goods_page': [GoodsPageRequest, Page<Goods>];
  'POST /api/goods/search_page': [SearchPageRequest, Page<Goods>];
  'POST /api/goods/get_lens_type': [Empty, LensType[]];
  'POST /api/goods/get_lens_color': [Empty, LensColor[]];
  'POST /api/goods/get_lens_thickness': [Empty, LensThickness[]];
  'GET /api/goods/lens_coating': [Empty, LensCoating[]];
  'GET /api/goods/prism_price': [Empty, PrismPrice];
  'POST /api/goods/save_goods': [SaveGoodsRequest, Goods];
  'POST /api/goods/delete_goods': [GoodsIdRequest, { deleted: true }];
  'POST /api/goods/unlist_goods': [UnlistGoodsRequest, Goods];
  'POST /api/goods/save_goods_media_files': [FormData, UploadResult];
  'GET /api/config/shop_config': [Empty, ShopConfig];
  'GET /api/config/get_category_page': [PageRequest, Page<Category>];
  'GET /api/config/get_colors': [Empty, Color[]];
  'GET /api/config/get_countries': [Empty, Country[]];
  'GET /api/config/get_coupons': [Empty, Coupon[]];
  'GET /api/config/get_discount': [Empty, DiscountOption[]];
  'GET /api/config/get_filters': [Empty, Filter[]];
  'POST /api/config/get_recommend_coupons': [RecommendCouponsRequest, RecommendedCoupon[]];
  'POST /api/config/get_shipping_method': [ShippingMethodRequest, ShippingMethod[]];
  'GET /api/index/shop_mainpage': [Empty, HomePage];
  'GET /api/index/shop_mainpage_detail': [IdRequest, HomeSection];
  'GET /api/order/get_cart': [Empty, Cart];
  'POST /api/order/upload_cart': [UploadCartRequest, Cart];
  'POST /api/order/submit_order': [SubmitOrderRequest, Order];
  'POST /api/order/get_user_order': [OrderListRequest, Page<Order>];
  'POST /api/order/delete_order': [OrderIdRequest, { deleted: true }];
  'POST /api/order/update_order_status': [UpdateOrderStatusRequest, Order];
  'POST /api/order/submit_my_prescription': [PrescriptionInput & { prescription_id?: number }, Prescription];
  'GET /api/payment/get_paypal_braintree_accesstoken': [Empty, BraintreeToken];
  'POST /api/payment/get_secret_for_stripe': [OrderIdRequest, StripeSecret];
  'POST /api/payment/sandbox/confirm_card': [SandboxCardRequest, { status: PaymentStatus }];
  'POST /api/payment/confirm_stripe': [OrderIdRequest, Order];
  'POST /api/payment/paypal_braintree_checkout': [BraintreeCheckoutRequest, Order];
  'POST /api/paypal/create_order': [OrderIdRequest, PaypalOrder];
  'POST /api/paypal/sandbox/approve': [{ paypal_order_id: string }, { approved: true }];
  'POST /api/paypal/capture_order': [PaypalCaptureRequest, Order];
  'POST /api/track/one_seven_track_data': [TrackRequest, Tracking];
  'POST /api/track/track_no_register': [TrackRequest, { registered: true; tracking_no: string }];
  'POST /api/tryon/face_detect': [{ image_base64: string }, { faces: DetectedFace[] }];
  'POST /api/upload/try_on_images': [TryOnImageRequest, UploadResult];
  'POST /api/messaging/token': [Empty, MessagingToken];
  'POST /api/admin/cs_agents': [{ team_id: string }, CsAgent[]];
  'POST /api/admin/cs_agent_assign': [{ team_id: string; email: string }, CsAgent[]];
  'POST /api/admin/cs_agent_remove': [{ team_id: string; user_id: number }, CsAgent[]];
}

/* ---------------------------------------------------------------- social (albums, tags, followers, likes, groups) */

/** A user as lists show them. */
export interface UserCard {
  user_id: number;
  nickname: string;
  avatar: string;
  bio: string;
  /** Whether the signed-in user follows this user (false for guests). */
  is_following: boolean;
}

export interface SocialProfile extends UserCard {
  is_admin: boolean;
  is_me: boolean;
  followers: number;
  following: number;
  articles: number;
  albums: number;
}

export interface FollowResult {
  user_id: number;
  is_following: boolean;
  /** The followed user's follower count after the change. */
  followers: number;
}

export interface SocialImage {
  image_id: number;
  album_id: number;
  url: string;
  caption: string;
  owner: { user_id: number; nickname: string; avatar: string };
  tags: Tag[];
  likes: number;
  liked: boolean;
  collected: boolean;
  created_at: number;
}

export interface Album {
  album_id: number;
  name: string;
  description: string;
  /** The chosen cover, else the newest image, else ''. */
  cover: string;
  owner: { user_id: number; nickname: string; avatar: string };
  image_count: number;
  collected: boolean;
  created_at: number;
}

export interface AlbumDetail extends Album {
  images: SocialImage[];
}

export interface Tag {
  tag_id: number;
  name: string;
  image_count: number;
}

export type LikeKind = 'article' | 'image';
export type CollectKind = 'album' | 'image';

export interface Comment {
  comment_id: number;
  kind: LikeKind;
  target_id: number;
  /** Plain text: the server strips every tag. */
  content: string;
  author: { user_id: number; nickname: string; avatar: string };
  created_at: number;
}

export interface SocialGroup {
  group_id: number;
  name: string;
  owner_id: number;
  member_count: number;
  is_member: boolean;
  created_at: number;
}

export type NoticeKind = 'likes' | 'followers' | 'comments';

/** Something that happened to the signed-in user's content: a like, a new follower or a comment. */
export interface Notice {
  kind: NoticeKind;
  from: { user_id: number; nickname: string; avatar: string };
  /** What was liked or commented on; null for a new follower. */
  target: { kind: LikeKind; target_id: number; title: string; image: string } | null;
  /** The comment text, for comments. */
  content: string;
  created_at: number;
}

export interface UserIdRequest {
  user_id: number;
}
export interface UserListRequest extends PageRequest {
  /** Absent: the signed-in user. */
  user_id?: number;
}
export interface UserSearchRequest extends PageRequest {
  keyword?: string;
}
export interface UpdateProfileRequest {
  nickname?: string;
  bio?: string;
  avatar?: string;
}
export interface TrendsRequest extends PageRequest {
  /** Absent: articles of the users the signed-in user follows, and their own. */
  user_id?: number;
}
export interface AlbumInput {
  name: string;
  description?: string;
  cover?: string;
}
export interface AddImagesRequest {
  album_id: number;
  images: { url: string; caption?: string; tags?: string[] }[];
}
export interface TagImagesRequest extends PageRequest {
  tag_id: number;
}
export interface TagImageRequest {
  image_id: number;
  /** Tag names; unknown ones are created. */
  tags: string[];
}
export interface TargetRequest {
  kind: LikeKind;
  target_id: number;
}
export interface CollectRequest {
  kind: CollectKind;
  target_id: number;
}
export interface CommentListRequest extends TargetRequest, PageRequest {}
export interface AddCommentRequest extends TargetRequest {
  content: string;
}
export interface CreateGroupRequest {
  name: string;
  member_ids?: number[];
}
export interface GroupIdRequest {
  group_id: number;
}
export interface NoticeRequest extends PageRequest {
  kind: NoticeKind;
}

export interface SocialEndpoints {
  'POST /api/social/profile': [UserShowRequest, SocialProfile];
  'POST /api/social/update_profile': [UpdateProfileRequest, SocialProfile];
  'POST /api/social/users': [UserSearchRequest, Page<UserCard>];
  'POST /api/social/follow': [UserIdRequest, FollowResult];
  'POST /api/social/unfollow': [UserIdRequest, FollowResult];
  'POST /api/social/followers': [UserListRequest, Page<UserCard>];
  'POST /api/social/following': [UserListRequest, Page<UserCard>];
  'POST /api/social/trends': [TrendsRequest, Page<ArticleSummary>];
  'POST /api/social/upload_image': [FormData, UploadResult];
  'POST /api/social/albums': [UserShowRequest, Album[]];
  'POST /api/social/album': [{ album_id: number }, AlbumDetail];
  'POST /api/social/create_album': [AlbumInput, Album];
  'POST /api/social/delete_album': [{ album_id: number }, { deleted: true }];
  'POST /api/social/add_images': [AddImagesRequest, SocialImage[]];
  'POST /api/social/delete_image': [{ image_id: number }, { deleted: true }];
  'POST /api/social/tags': [{ keyword?: string }, Tag[]];
  'POST /api/social/create_tag': [{ name: string }, Tag];
  'POST /api/social/tag_image': [TagImageRequest, SocialImage];
  'POST /api/social/tag_images': [TagImagesRequest, Page<SocialImage> & { tag: Tag }];
  'POST /api/social/collect': [CollectRequest, { collected: boolean }];
  'POST /api/social/uncollect': [CollectRequest, { collected: boolean }];
  'POST /api/social/collected_albums': [PageRequest, Page<Album>];
  'POST /api/social/collected_images': [PageRequest, Page<SocialImage>];
  'POST /api/social/like': [TargetRequest, { liked: boolean; likes: number }];
  'POST /api/social/unlike': [TargetRequest, { liked: boolean; likes: number }];
  'POST /api/social/likes': [TargetRequest, { liked: boolean; likes: number }];
  'POST /api/social/comments': [CommentListRequest, Page<Comment>];
  'POST /api/social/add_comment': [AddCommentRequest, Comment];
  'POST /api/social/delete_comment': [{ comment_id: number }, { deleted: true }];
  'POST /api/social/groups': [Empty, SocialGroup[]];
  'POST /api/social/group': [GroupIdRequest, SocialGroup & { members: UserCard[] }];
  'POST /api/social/create_group': [CreateGroupRequest, SocialGroup];
  'POST /api/social/join_group': [GroupIdRequest, SocialGroup];
  'POST /api/social/leave_group': [GroupIdRequest, { left: true }];
  'POST /api/social/group_members': [GroupIdRequest, UserCard[]];
  'POST /api/social/notifications': [NoticeRequest, Page<Notice>];
}
