/**
 * The contract map: every route of the product API as `METHOD /path` → the schema of its request (a JSON body for
 * POST, the query for GET) and of its answer's `data`. The server registers each route from its entry (validation,
 * serialization, the OpenAPI document), the app's request layer (`src/core/request.ts`) accepts only these paths
 * and infers the request and the answer from them, and the page tests' fake API is typed by them.
 *
 * The app imports this module for its types only (`import type`): dependency-cruiser refuses a value import from
 * src/, so zod and the schemas stay out of the app bundles.
 */
import type { z } from 'zod';
import type { Endpoints, ReviewEndpoints, SocialEndpoints } from './api';
import { deleted, empty, page } from './schemas/common';
import * as order from './schemas/order';
import * as payment from './schemas/payment';
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
  'POST /api/order/delete_order': {
    request: order.orderIdRequest,
    response: deleted,
    summary: 'Deletes (and cancels, when unpaid) an order that is not paid or on its way',
  },
  'POST /api/payment/get_secret_for_stripe': {
    request: order.orderIdRequest,
    response: payment.stripeSecret,
    summary: 'Starts a card payment of an order awaiting payment',
  },
  'POST /api/payment/sandbox/confirm_card': {
    request: payment.sandboxCardRequest,
    response: payment.sandboxCardResult,
    summary: 'Sandbox only: confirms a card payment as Stripe.js would',
  },
  'POST /api/payment/confirm_stripe': {
    request: order.orderIdRequest,
    response: order.order,
    summary: "Records the card payment's outcome; the order becomes paid when it succeeded",
  },
  'POST /api/paypal/create_order': {
    request: order.orderIdRequest,
    response: payment.paypalOrder,
    summary: 'Starts a PayPal payment of an order awaiting payment',
  },
  'POST /api/paypal/sandbox/approve': {
    request: payment.paypalApproveRequest,
    response: payment.paypalApproved,
    summary: 'Sandbox only: the buyer approves the PayPal order',
  },
  'POST /api/paypal/capture_order': {
    request: payment.paypalCaptureRequest,
    response: order.order,
    summary: 'Captures an approved PayPal order; the order becomes paid',
  },
  'GET /api/payment/get_paypal_braintree_accesstoken': {
    request: empty,
    response: payment.braintreeToken,
    summary: "A client token for Braintree's drop-in",
  },
  'POST /api/payment/paypal_braintree_checkout': {
    request: payment.braintreeCheckoutRequest,
    response: order.order,
    summary: 'Charges a Braintree payment method nonce for an order awaiting payment',
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

/**
 * Routes still declared by the interface maps of types/api.ts, until their group moves into the contract map;
 * a route in both is the contract map's.
 */
type Legacy = Omit<Endpoints & SocialEndpoints & ReviewEndpoints, ContractRoute>;

/** Every route the app may call, with its request and answer. */
export type ApiRoutes = { [K in ContractRoute]: { request: RequestOf<K>; response: ResponseOf<K> } } & {
  [K in keyof Legacy]: { request: Legacy[K][0]; response: Legacy[K][1] };
};
export type ApiRoute = keyof ApiRoutes;
export type ApiRequest<K extends ApiRoute> = ApiRoutes[K]['request'];
export type ApiResponse<K extends ApiRoute> = ApiRoutes[K]['response'];

type PathOf<K, M extends string> = K extends `${M} ${infer P}` ? P : never;
/** The paths the app may GET (the request is the query). */
export type GetPath = PathOf<ApiRoute, 'GET'>;
type MultipartRoute = {
  [K in ApiRoute]: K extends ContractRoute
    ? Contract[K] extends { multipart: true }
      ? K
      : never
    : ApiRequest<K> extends FormData
      ? K
      : never;
}[ApiRoute];
/** The paths the app may POST a JSON body to. */
export type PostPath = PathOf<Exclude<ApiRoute, MultipartRoute>, 'POST'>;
/** The paths the app uploads a file to (multipart/form-data). */
export type MultipartPath = PathOf<MultipartRoute, 'POST'>;
