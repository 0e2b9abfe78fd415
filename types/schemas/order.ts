/** The cart, orders and their status machine. */
import { z } from 'zod';
import { MAX_CART_LINES, ORDER_STATUSES } from '../constants';
import { address, prescription } from './account';
import { adminListFields, bodyId, id, money, page, pageFields } from './common';
import { lensChoice, pricedLens } from './lens';
export const orderStatus = z.enum(ORDER_STATUSES);

/** One line of a cart or of an order as a client gives it. */
export const cartLineInput = z.object({
  goods_id: z.number({ required_error: 'is required', invalid_type_error: 'must be a number' }).int().positive(),
  color_id: z.number({ required_error: 'is required', invalid_type_error: 'must be a number' }).int().positive(),
  /** 1 to 20. */
  quantity: z
    .number({ required_error: 'is required' })
    .int('must be a whole number')
    .min(1, 'must be from 1 to 20')
    .max(20, 'must be from 1 to 20'),
  /** null or absent: frame only. */
  lens: lensChoice.nullable().optional(),
  /** A saved prescription of the user, needed when the lens type needs one. */
  prescription_id: z.number().int().positive().nullable().optional(),
});

/** What `upload_cart` takes, JSON-encoded, in the field `content`. */
export const cartContent = z.object({
  lines: z.array(cartLineInput).max(MAX_CART_LINES, `must have at most ${MAX_CART_LINES} lines`),
});

export const uploadCartRequest = z.object({
  /** JSON.stringify(CartContent). */
  content: z.string({ required_error: 'is required', invalid_type_error: 'must be a JSON string' }).max(100_000),
});

export const cartLine = cartLineInput.extend({
  goods_name: z.string(),
  goods_img: z.string(),
  color_name: z.string(),
  frame_price: z.number(),
  lens_detail: pricedLens.nullable(),
  unit_price: z.number(),
  line_total: z.number(),
  /** false when the frame was unlisted or its colour is out of stock, or the line has a problem. */
  available: z.boolean(),
  /**
   * Why the line cannot be ordered as saved, worded as what to do (its prescription was deleted, its frame or a
   * lens option left the shop); absent when it can. Such a line is kept in the cart and shown, never hidden.
   */
  problem: z.string().optional(),
});

export const cart = z.object({
  lines: z.array(cartLine),
  item_count: z.number(),
  subtotal: z.number(),
  updated_at: z.number().nullable(),
});

export const submitOrderRequest = z.object({
  /** A key the client makes once per checkout; a retry with the same key answers the same order. */
  client_key: z
    .string({ required_error: 'is required' })
    .trim()
    .min(8, 'must have 8 to 64 characters')
    .max(64, 'must have 8 to 64 characters'),
  address_id: id,
  shipping_method_id: id,
  coupon_code: z.string().trim().max(40).optional(),
  /** Absent: the saved cart, which is emptied once the order is made. */
  lines: z.array(cartLineInput).min(1, 'must not be empty').max(MAX_CART_LINES).optional(),
});

export const orderListRequest = z.object({
  ...pageFields,
  status: orderStatus.optional(),
  order_id: bodyId.optional(),
});

/** Admin only: moves an order along the status machine (created → paid → shipped → delivered; cancelled, refunded). */
export const updateOrderStatusRequest = z.object({
  order_id: id,
  status: z.enum(ORDER_STATUSES, { errorMap: () => ({ message: `must be one of ${ORDER_STATUSES.join(', ')}` }) }),
  /** Required when the status becomes shipped. */
  tracking_no: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{6,40}$/, 'must be 6 to 40 letters, digits or dashes')
    .optional(),
  carrier: z.string().trim().max(60).optional(),
});

export const orderIdRequest = z.object({ order_id: id });

export const orderLine = z.object({
  line_id: z.number(),
  goods_id: z.number(),
  goods_name: z.string(),
  goods_img: z.string(),
  color_id: z.number(),
  color_name: z.string(),
  quantity: z.number(),
  frame_price: z.number(),
  lens_detail: pricedLens.nullable(),
  unit_price: z.number(),
  line_total: z.number(),
  prescription: prescription.nullable(),
});

export const order = z.object({
  order_id: z.number(),
  order_sn: z.string(),
  status: orderStatus,
  lines: z.array(orderLine),
  address,
  shipping_method: z.object({
    shipping_method_id: z.number(),
    name: z.string(),
    min_days: z.number(),
    max_days: z.number(),
  }),
  coupon: z.object({ coupon_id: z.number(), code: z.string(), title: z.string() }).nullable(),
  subtotal: z.number(),
  coupon_discount: z.number(),
  shipping_fee: z.number(),
  total: z.number(),
  currency: z.string(),
  tracking_no: z.string().nullable(),
  carrier: z.string().nullable(),
  created_at: z.number(),
  paid_at: z.number().nullable(),
  /** What was refunded so far: the status stays while it is less than the total (a partial refund). */
  refunded: z.number(),
  shipped_at: z.number().nullable(),
  delivered_at: z.number().nullable(),
});

export const orderPage = page(order);

/** One step of an order's life, with who made it (the staff member's e-mail in the admin's view) and when. */
export const orderEvent = z.object({
  kind: z.enum(['paid', 'shipped', 'delivered', 'cancelled', 'expired', 'refunded', 'partially_refunded']),
  from_status: orderStatus,
  to_status: orderStatus,
  actor: z.enum(['staff', 'shopper', 'system', 'provider', 'carrier']),
  actor_name: z.string(),
  note: z.string(),
  /** A refund's amount. */
  amount: z.number().nullable(),
  created_at: z.number(),
});

/* ------------------------------------------------------------------------------------------ the owner's screens */

/** Admin: orders of every shopper, newest first; `q` finds an order number (or its start) or a shopper's e-mail. */
export const adminOrderListRequest = z.object({
  /** Paged and searched (`q`: an order number's start or part of an e-mail) as the admin's other lists. */
  ...adminListFields,
  status: z
    .enum(ORDER_STATUSES, { errorMap: () => ({ message: `must be one of ${ORDER_STATUSES.join(', ')}` }) })
    .optional(),
  /** Placed at or after (epoch ms). */
  from: z.number().int().nonnegative().optional(),
  /** Placed before (epoch ms). */
  to: z.number().int().nonnegative().optional(),
});

export const adminOrder = order.extend({ user_id: z.number(), user_email: z.string() });
export const adminOrderPage = page(adminOrder);
export const adminOrderDetail = z.object({ order: adminOrder, history: z.array(orderEvent) });

export const shipOrderRequest = z.object({
  order_id: id,
  carrier: z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(60),
  tracking_no: z
    .string({ required_error: 'is required' })
    .trim()
    .regex(/^[A-Za-z0-9-]{6,40}$/, 'must be 6 to 40 letters, digits or dashes'),
});

export const orderNoteRequest = z.object({ order_id: id, note: z.string().trim().max(200).optional() });

export const refundOrderRequest = z.object({
  order_id: id,
  /** Absent: all that is left to refund. */
  amount: money.refine((value) => value > 0, 'must be more than 0').optional(),
  /** Made once per refund by the client: a retry with the same key refunds nothing more. */
  client_key: z
    .string({ required_error: 'is required' })
    .trim()
    .min(8, 'must have 8 to 64 characters')
    .max(64, 'must have 8 to 64 characters'),
  note: z.string().trim().max(200).optional(),
});
