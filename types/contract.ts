/**
 * The contract map: every route of the product API as `METHOD /path` → the schema of its request (a JSON body for
 * POST, the query for GET) and of its answer's `data`. The server registers each route from its entry (validation,
 * serialization, the OpenAPI document), the app's request layer (`src/core/request.ts`) accepts only these paths
 * and infers the request and the answer from them, and the page tests' fake API is typed by them.
 *
 * The app imports this module for its types only (`import type`): dependency-cruiser refuses a value import from
 * src/, so zod and the schemas stay out of the app bundles.
 */
import { z } from 'zod';
import * as account from './schemas/account';
import * as catalog from './schemas/catalog';
import { deleted, empty, page } from './schemas/common';
import * as config from './schemas/config';
import * as content from './schemas/content';
import * as order from './schemas/order';
import * as payment from './schemas/payment';
import * as social from './schemas/social';
import * as tools from './schemas/tools';
import * as track from './schemas/track';

/** One route: what it takes and what its answer's `data` is. */
export interface RouteSchema {
  request: z.ZodTypeAny;
  response: z.ZodTypeAny;
  /** A multipart/form-data upload: the request schema documents the form fields, the handler reads the parts. */
  multipart?: true;
  /** One line for the API documentation. */
  summary?: string;
}

export const contract = {
  /* ---- auth and account */
  'POST /api/auth/register': {
    request: account.registerRequest,
    response: account.loginResult,
    summary: 'Creates an account and signs it in',
  },
  'POST /api/auth/login': { request: account.loginRequest, response: account.loginResult, summary: 'Signs in' },
  'POST /api/auth/check_account': {
    request: account.emailRequest,
    response: account.existsResult,
    summary: 'Whether an e-mail has an account',
  },
  'POST /api/auth/forget_password': {
    request: account.emailRequest,
    response: account.sentResult,
    summary: 'Mails a 6-digit code that resets the password',
  },
  'POST /api/auth/logout': { request: empty, response: account.loggedOutResult, summary: 'Ends this login' },
  'POST /api/google/google_login': {
    request: account.googleLoginRequest,
    response: account.loginResult,
    summary: 'Signs in with a Google ID token',
  },
  'POST /api/wechat/login': {
    request: account.wechatLoginRequest,
    response: account.wechatLogin,
    summary: 'Signs in with a wx.login code (mini-program): the WeChat account, or one linked or created for it',
  },
  'POST /api/user/change_password': {
    request: account.changePasswordRequest,
    response: account.loginResult,
    summary: 'Changes the password; every other login ends',
  },
  'POST /api/user/change_password_with_verification_code': {
    request: account.changePasswordWithCodeRequest,
    response: account.changedResult,
    summary: 'Resets the password with the mailed code; every login ends',
  },
  'POST /api/user/user_show': {
    request: account.userShowRequest,
    response: account.user.partial().merge(account.userProfile),
    summary: 'A user (without user_id: the signed-in user, with e-mail)',
  },
  'POST /api/user/get_user_address': {
    request: empty,
    response: z.array(account.address),
    summary: "The user's addresses, default first",
  },
  'POST /api/user/set_user_address': {
    request: account.addressInput,
    response: account.address,
    summary: 'Adds an address, or updates one with address_id',
  },
  'POST /api/user/delete_user_address': {
    request: account.addressIdRequest,
    response: deleted,
    summary: 'Deletes an address',
  },
  'GET /api/user/get_my_prescription': {
    request: empty,
    response: z.array(account.prescription),
    summary: "The user's prescriptions, newest first",
  },
  'POST /api/user/delete_my_prescription': {
    request: account.prescriptionIdRequest,
    response: deleted,
    summary: 'Deletes a prescription',
  },
  'POST /api/order/submit_my_prescription': {
    request: account.prescriptionInput,
    response: account.prescription,
    summary: 'Saves a prescription, or updates one with prescription_id',
  },

  /* ---- articles */
  'GET /api/article/get_article': { request: content.idRequest, response: content.article, summary: 'An article' },
  'GET /api/article/get_article_category': {
    request: empty,
    response: z.array(content.articleCategory),
    summary: 'The article categories',
  },
  'POST /api/article/get_article_list': {
    request: content.articleListRequest,
    response: page(content.articleSummary),
    summary: 'Articles, newest first',
  },
  'POST /api/article/insert_article': {
    request: content.articleInput,
    response: content.article,
    summary: 'Admin: publishes an article',
  },
  'POST /api/article/update_article': {
    request: content.articleUpdateRequest,
    response: content.article,
    summary: 'Admin: changes an article',
  },
  'POST /api/article/delete_article': {
    request: content.articleIdRequest,
    response: deleted,
    summary: 'Admin: deletes an article',
  },
  'POST /api/admin/article/list': {
    request: content.adminArticleListRequest,
    response: page(content.articleSummary),
    summary: 'Admin: every article, newest first, a page at a time, found by words of its title',
  },

  /* ---- catalogue */
  'POST /api/goods/get_goods_by_id': {
    request: catalog.goodsIdRequest,
    response: catalog.goods,
    summary: 'A frame with every colour and filter',
  },
  'POST /api/goods/get_goods_page': {
    request: catalog.goodsPageRequest,
    response: page(catalog.goodsCard),
    summary: 'A page of frames by colour, filters and category',
  },
  'POST /api/goods/search_page': {
    request: catalog.searchPageRequest,
    response: page(catalog.goodsCard),
    summary: 'A page of frames matching the words of a keyword',
  },
  'POST /api/goods/get_lens_type': {
    request: empty,
    response: z.array(catalog.lensType),
    summary: 'Lens types with their lenses',
  },
  'POST /api/goods/get_lens_color': { request: empty, response: z.array(catalog.lensColor), summary: 'Lens colours' },
  'POST /api/goods/get_lens_thickness': {
    request: empty,
    response: z.array(catalog.lensThickness),
    summary: 'Lens indexes (thickness)',
  },
  'GET /api/goods/lens_coating': { request: empty, response: z.array(catalog.lensCoating), summary: 'Coatings' },
  'GET /api/goods/prism_price': { request: empty, response: catalog.prismPrice, summary: 'The prism price' },
  'POST /api/goods/save_goods': {
    request: catalog.saveGoodsRequest,
    response: catalog.goods,
    summary: 'Admin: creates a frame, or replaces one with goods_id',
  },
  'POST /api/goods/delete_goods': {
    request: catalog.goodsIdRequest,
    response: deleted,
    summary: 'Admin: deletes a frame (orders keep it)',
  },
  'POST /api/goods/unlist_goods': {
    request: catalog.unlistGoodsRequest,
    response: catalog.goods,
    summary: 'Admin: takes a frame off sale, or puts it back',
  },
  'POST /api/admin/goods/list': {
    request: catalog.adminGoodsListRequest,
    response: page(catalog.goodsCard),
    summary: 'Admin: every frame, unlisted ones too, newest first, a page at a time, found by name or id',
  },
  'POST /api/goods/save_goods_media_files': {
    request: catalog.uploadForm,
    response: catalog.uploadResult,
    multipart: true,
    summary: 'Uploads a file (field file) to save_to: MYPRESCRIPTION and AVATAR for anyone signed in',
  },

  /* ---- configuration and reference lists */
  'GET /api/config/shop_config': { request: empty, response: config.shopConfig, summary: "The shop's settings" },
  'GET /api/config/get_category_page': {
    request: config.pageRequest,
    response: page(catalog.category),
    summary: 'A page of categories',
  },
  'GET /api/config/get_colors': { request: empty, response: z.array(catalog.color), summary: 'Every colour' },
  'GET /api/config/get_countries': {
    request: empty,
    response: z.array(config.country),
    summary: 'The countries the shop ships to',
  },
  'GET /api/config/get_coupons': { request: empty, response: z.array(config.coupon), summary: 'Coupons valid now' },
  'GET /api/config/get_discount': {
    request: empty,
    response: z.array(config.discountOption),
    summary: 'The discounts on sale, with their frame counts',
  },
  'GET /api/config/get_filters': { request: empty, response: z.array(catalog.filter), summary: 'Every filter' },
  'POST /api/config/get_recommend_coupons': {
    request: config.recommendCouponsRequest,
    response: z.array(config.recommendedCoupon),
    summary: 'The coupons the caller may still use on a subtotal, best saving first',
  },
  'POST /api/config/get_shipping_method': {
    request: config.shippingMethodRequest,
    response: z.array(config.shippingMethod),
    summary: 'Shipping methods priced for a subtotal',
  },

  /* ---- home */
  'GET /api/index/shop_mainpage': { request: empty, response: content.homePage, summary: 'The home page' },
  'GET /api/index/shop_mainpage_detail': {
    request: content.idRequest,
    response: content.homeSection,
    summary: 'One home section with more of its frames',
  },

  'GET /api/order/get_cart': { request: empty, response: order.cart, summary: "The shopper's saved cart, priced now" },
  'POST /api/order/upload_cart': {
    request: order.uploadCartRequest,
    response: order.cart,
    summary: 'Replaces the saved cart (every line is checked against the catalogue)',
  },
  'POST /api/order/submit_order': {
    request: order.submitOrderRequest,
    response: order.order,
    summary: 'Orders the given lines or the saved cart; a retry with the same client_key answers the same order',
  },
  'POST /api/order/get_user_order': {
    request: order.orderListRequest,
    response: page(order.order),
    summary: "The shopper's orders, newest first",
  },
  'POST /api/order/update_order_status': {
    request: order.updateOrderStatusRequest,
    response: order.order,
    summary: 'Admin: moves an order along the status machine',
  },
  'POST /api/order/get_order_history': {
    request: order.orderIdRequest,
    response: z.array(order.orderEvent),
    summary: "The steps of one of the shopper's orders, oldest first",
  },
  'POST /api/order/get_order_tracking': {
    request: order.orderIdRequest,
    response: track.tracking,
    summary: "The parcel's tracking of a shipped order: its owner's or staff's only",
  },
  'POST /api/admin/order/list': {
    request: order.adminOrderListRequest,
    response: order.adminOrderPage,
    summary: 'Admin: every order, newest first, by status, date, order number or e-mail',
  },
  'POST /api/admin/order/detail': {
    request: order.orderIdRequest,
    response: order.adminOrderDetail,
    summary: 'Admin: one order with its shopper and its history',
  },
  'POST /api/admin/order/ship': {
    request: order.shipOrderRequest,
    response: order.adminOrderDetail,
    summary: 'Admin: ships a paid order (carrier and tracking number, registered with the tracking provider)',
  },
  'POST /api/admin/order/deliver': {
    request: order.orderNoteRequest,
    response: order.adminOrderDetail,
    summary: 'Admin: marks a shipped order delivered',
  },
  'POST /api/admin/order/cancel': {
    request: order.orderNoteRequest,
    response: order.adminOrderDetail,
    summary: 'Admin: cancels an unpaid order (stock and coupon released) or a paid one (refunded in full)',
  },
  'POST /api/admin/order/refund': {
    request: order.refundOrderRequest,
    response: order.adminOrderDetail,
    summary: 'Admin: refunds an order in full or in part through the provider that took the payment',
  },
  'POST /api/order/delete_order': {
    request: order.orderIdRequest,
    response: deleted,
    summary: 'Deletes (and cancels, when unpaid) an order that is not paid or on its way',
  },
  'GET /api/payment/methods': {
    request: empty,
    response: payment.paymentMethods,
    summary: 'The ways to pay this server offers, and whether any is in test mode',
  },
  'POST /api/payment/get_secret_for_stripe': {
    request: order.orderIdRequest,
    response: payment.stripeSecret,
    summary: "Starts (or resumes) a card payment: a Stripe PaymentIntent for the order's total",
  },
  'POST /api/payment/confirm_stripe': {
    request: order.orderIdRequest,
    response: order.order,
    summary: 'Reads the card payment back from Stripe; the order is paid when Stripe says it succeeded',
  },
  'POST /api/paypal/create_order': {
    request: order.orderIdRequest,
    response: payment.paypalOrder,
    summary: "Creates a PayPal order (Orders v2) for the order's total, for the PayPal buttons",
  },
  'POST /api/paypal/capture_order': {
    request: payment.paypalCaptureRequest,
    response: order.order,
    summary: 'Captures the PayPal order the buyer approved; the order is paid when PayPal completes it',
  },
  'GET /api/payment/get_paypal_braintree_accesstoken': {
    request: empty,
    response: payment.braintreeToken,
    summary: "A client token for Braintree's drop-in",
  },
  'POST /api/payment/paypal_braintree_checkout': {
    request: payment.braintreeCheckoutRequest,
    response: order.order,
    summary: "Sells the order's total against the drop-in's nonce",
  },
  'POST /api/payment/wechat/prepay': {
    request: payment.wechatPrepayRequest,
    response: payment.wechatPrepay,
    summary:
      "A WeChat Pay JSAPI prepay for the order's total, for the WeChat user of the wx.login code; the signed fields of wx.requestPayment",
  },
  'POST /api/payment/wechat/confirm': {
    request: order.orderIdRequest,
    response: order.order,
    summary: 'Reads the WeChat Pay payment back from WeChat Pay; the order, paid when WeChat Pay says so',
  },
  'POST /api/payment/webhook/wechat': {
    request: payment.wechatWebhook,
    response: payment.webhookReceived,
    summary: "WeChat Pay's notifications, verified with WeChat Pay's public key and decrypted with the APIv3 key",
  },
  'POST /api/payment/webhook/stripe': {
    request: payment.stripeWebhook,
    response: payment.webhookReceived,
    summary: "Stripe's events, verified with the endpoint secret (Stripe-Signature)",
  },
  'POST /api/payment/webhook/paypal': {
    request: payment.paypalWebhook,
    response: payment.webhookReceived,
    summary: "PayPal's events, verified by PayPal's verify-webhook-signature",
  },
  'POST /api/payment/webhook/braintree': {
    request: payment.braintreeWebhook,
    response: payment.webhookReceived,
    summary: "Braintree's notifications (form fields bt_signature, bt_payload), parsed by its SDK",
  },
  'POST /api/track/webhook/17track': {
    request: track.seventeenTrackWebhook,
    response: track.trackWebhookReceived,
    summary: "17track's tracking notifications, verified by their sign header (sha256 of body/key)",
  },
  'POST /api/track/track_no_register': {
    request: track.trackRequest,
    response: track.trackRegistered,
    summary: 'Registers a parcel with the tracking service',
  },
  'POST /api/track/one_seven_track_data': {
    request: track.trackRequest,
    response: track.tracking,
    summary: "A parcel's tracking events, newest first",
  },

  /* ---- try-on, messaging, customer service */
  'POST /api/tryon/face_detect': {
    request: tools.faceDetectRequest,
    response: tools.faceDetectResult,
    summary: 'Faces and eyes in a photo',
  },
  'POST /api/upload/try_on_images': {
    request: tools.tryOnImageRequest,
    response: catalog.uploadResult,
    summary: 'Stores a try-on picture',
  },
  'POST /api/messaging/token': {
    request: empty,
    response: tools.messagingToken,
    summary: "The messaging server's identity proof for the signed-in user (5 minutes)",
  },
  'POST /api/admin/cs_agents': {
    request: tools.teamRequest,
    response: z.array(tools.csAgent),
    summary: "Admin: a team's customer-service agents",
  },
  'POST /api/admin/cs_agent_assign': {
    request: tools.assignAgentRequest,
    response: z.array(tools.csAgent),
    summary: 'Admin: makes a user an agent of a team',
  },
  'POST /api/admin/cs_agent_remove': {
    request: tools.removeAgentRequest,
    response: z.array(tools.csAgent),
    summary: 'Admin: removes an agent from a team',
  },

  /* ---- reviews */
  'POST /api/review/get_reviews': {
    request: content.reviewListRequest,
    response: content.reviewPage,
    summary: 'Reviews, newest first, of one frame or of all',
  },
  'POST /api/review/save_review': {
    request: content.saveReviewRequest,
    response: content.review,
    summary: "Writes (or rewrites) the shopper's review of a frame",
  },

  /* ---- social */
  'POST /api/social/profile': {
    request: social.ownerRequest,
    response: social.socialProfile,
    summary: "A user's profile (without user_id: the caller's)",
  },
  'POST /api/social/update_profile': {
    request: social.updateProfileRequest,
    response: social.socialProfile,
    summary: "Changes the caller's nickname, bio or avatar",
  },
  'POST /api/social/users': {
    request: social.userSearchRequest,
    response: page(social.userCard),
    summary: 'Users by nickname',
  },
  'POST /api/social/follow': {
    request: social.userIdRequest,
    response: social.followResult,
    summary: 'Follows a user',
  },
  'POST /api/social/unfollow': {
    request: social.userIdRequest,
    response: social.followResult,
    summary: 'Stops following a user',
  },
  'POST /api/social/followers': {
    request: social.userListRequest,
    response: page(social.userCard),
    summary: "A user's followers (without user_id: the caller's)",
  },
  'POST /api/social/following': {
    request: social.userListRequest,
    response: page(social.userCard),
    summary: 'Whom a user follows (without user_id: the caller)',
  },
  'POST /api/social/trends': {
    request: social.userListRequest,
    response: page(content.articleSummary),
    summary: "A user's articles (without user_id: the caller's and those of whom they follow)",
  },
  'POST /api/social/upload_image': {
    request: social.imageUploadForm,
    response: catalog.uploadResult,
    multipart: true,
    summary: 'Uploads an image (field file) for albums and avatars',
  },
  'POST /api/social/albums': {
    request: social.ownerRequest,
    response: z.array(social.album),
    summary: "A user's albums (without user_id: the caller's)",
  },
  'POST /api/social/album': {
    request: social.albumIdRequest,
    response: social.albumDetail,
    summary: 'An album with its images',
  },
  'POST /api/social/create_album': { request: social.albumInput, response: social.album, summary: 'Creates an album' },
  'POST /api/social/delete_album': {
    request: social.albumIdRequest,
    response: deleted,
    summary: "Deletes one of the caller's albums",
  },
  'POST /api/social/add_images': {
    request: social.addImagesRequest,
    response: z.array(social.socialImage),
    summary: "Adds images to one of the caller's albums",
  },
  'POST /api/social/delete_image': {
    request: social.imageIdRequest,
    response: deleted,
    summary: "Deletes one of the caller's images",
  },
  'POST /api/social/tags': { request: social.tagSearchRequest, response: z.array(social.tag), summary: 'Tags' },
  'POST /api/social/create_tag': { request: social.tagNameRequest, response: social.tag, summary: 'Creates a tag' },
  'POST /api/social/tag_image': {
    request: social.tagImageRequest,
    response: social.socialImage,
    summary: "Tags one of the caller's images",
  },
  'POST /api/social/tag_images': {
    request: social.tagImagesRequest,
    response: page(social.socialImage).extend({ tag: social.tag }),
    summary: 'The images of a tag',
  },
  'POST /api/social/collect': {
    request: social.collectRequest,
    response: social.collectState,
    summary: 'Collects an album or an image',
  },
  'POST /api/social/uncollect': {
    request: social.collectRequest,
    response: social.collectState,
    summary: 'Removes an album or an image from the collection',
  },
  'POST /api/social/collected_albums': {
    request: social.pageRequest,
    response: page(social.album),
    summary: "The caller's collected albums",
  },
  'POST /api/social/collected_images': {
    request: social.pageRequest,
    response: page(social.socialImage),
    summary: "The caller's collected images",
  },
  'POST /api/social/like': {
    request: social.targetRequest,
    response: social.likeState,
    summary: 'Likes an article or an image',
  },
  'POST /api/social/unlike': {
    request: social.targetRequest,
    response: social.likeState,
    summary: 'Takes a like back',
  },
  'POST /api/social/likes': {
    request: social.targetRequest,
    response: social.likeState,
    summary: "An article's or image's likes",
  },
  'POST /api/social/comments': {
    request: social.commentListRequest,
    response: page(social.comment),
    summary: 'Comments on an article or an image, newest first',
  },
  'POST /api/social/add_comment': {
    request: social.addCommentRequest,
    response: social.comment,
    summary: 'Comments (plain text) on an article or an image',
  },
  'POST /api/social/delete_comment': {
    request: social.commentIdRequest,
    response: deleted,
    summary: "Deletes one of the caller's comments (admins: any)",
  },
  'POST /api/social/groups': {
    request: empty,
    response: z.array(social.socialGroup),
    summary: "The caller's groups",
  },
  'POST /api/social/group': {
    request: social.groupIdRequest,
    response: social.groupWithMembers,
    summary: 'A group with its members',
  },
  'POST /api/social/create_group': {
    request: social.createGroupRequest,
    response: social.socialGroup,
    summary: 'Creates a group with the caller and the given members',
  },
  'POST /api/social/join_group': {
    request: social.groupIdRequest,
    response: social.socialGroup,
    summary: 'Joins a group',
  },
  'POST /api/social/leave_group': {
    request: social.groupIdRequest,
    response: social.leftResult,
    summary: 'Leaves a group',
  },
  'POST /api/social/group_members': {
    request: social.groupIdRequest,
    response: z.array(social.userCard),
    summary: "A group's members",
  },
  'POST /api/social/notifications': {
    request: social.noticeRequest,
    response: page(social.notice),
    summary: "Likes, new followers or comments on the caller's content",
  },
} as const satisfies Record<`${'GET' | 'POST'} /api/${string}`, RouteSchema>;

export type Contract = typeof contract;
/** A route of the contract map, e.g. `POST /api/order/submit_order`. */
export type ContractRoute = keyof Contract;
/** What a client sends (defaults not yet applied). */
export type RequestOf<K extends ContractRoute> = z.input<Contract[K]['request']>;
/** What a handler receives: the request after validation (trimmed, defaults applied). */
export type ParsedRequestOf<K extends ContractRoute> = z.output<Contract[K]['request']>;
/** The `data` of a success, as the client receives it. */
export type ResponseOf<K extends ContractRoute> = z.output<Contract[K]['response']>;
/** The `data` a handler may answer with (before serialization). */
export type AnswerOf<K extends ContractRoute> = z.input<Contract[K]['response']>;

/** Every route the app may call, with its request and answer. */
export type ApiRoutes = { [K in ContractRoute]: { request: RequestOf<K>; response: ResponseOf<K> } };
export type ApiRoute = keyof ApiRoutes;
export type ApiRequest<K extends ApiRoute> = ApiRoutes[K]['request'];
export type ApiResponse<K extends ApiRoute> = ApiRoutes[K]['response'];

type PathOf<K, M extends string> = K extends `${M} ${infer P}` ? P : never;
/** The paths the app may GET (the request is the query). */
export type GetPath = PathOf<ApiRoute, 'GET'>;
type MultipartRoute = { [K in ContractRoute]: Contract[K] extends { multipart: true } ? K : never }[ContractRoute];
/** The paths the app may POST a JSON body to. */
export type PostPath = PathOf<Exclude<ApiRoute, MultipartRoute>, 'POST'>;
/** The paths the app uploads a file to (multipart/form-data). */
export type MultipartPath = PathOf<MultipartRoute, 'POST'>;
