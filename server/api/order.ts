import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Cart, CartContent, CartLineInput, OrderStatus } from '../../types/api';
import { ORDER_STATUSES } from '../../types/api';
import { requireAdmin, requireUser } from '../auth';
import type { AppContext } from '../context';
import { ApiError, body, fromCents, id, jsonParse, ok, pageFields, pageRows, parse } from '../http';
import { canMove, loadOrder, toOrders } from '../services/orders';
import { couponSavingCents, loadPriceBook, priceLine, shippingCents } from '../services/pricing';
import { uploadUrlReader } from '../services/uploads';
import { toAddress, toPrescription } from './user';

const MAX_CART_LINES = 50;

export const cartLine = z.object({
  goods_id: z.number({ required_error: 'is required', invalid_type_error: 'must be a number' }).int().positive(),
  color_id: z.number({ required_error: 'is required', invalid_type_error: 'must be a number' }).int().positive(),
  quantity: z
    .number({ required_error: 'is required' })
    .int('must be a whole number')
    .min(1, 'must be from 1 to 20')
    .max(20, 'must be from 1 to 20'),
  lens: z
    .object({
      lens_type_id: z.number({ required_error: 'is required' }).int().positive(),
      lens_id: z.number().int().positive().nullable().optional(),
      thickness_id: z.number().int().positive().nullable().optional(),
      coating_ids: z.array(z.number().int().positive()).max(10).optional(),
      lens_color_id: z.number().int().positive().nullable().optional(),
    })
    .nullable()
    .optional(),
  prescription_id: z.number().int().positive().nullable().optional(),
});
const cartContent = z.object({
  lines: z.array(cartLine).max(MAX_CART_LINES, `must have at most ${MAX_CART_LINES} lines`),
});

function orderSn(now: number): string {
  const date = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
  return `LM${date}${randomBytes(4).toString('hex').toUpperCase()}`;
}

export function registerOrderRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function cartOf(userId: number, lines: CartLineInput[], updatedAt: number | null): Promise<Cart> {
    const book = await loadPriceBook(ctx.db, lines, userId);
    const priced = lines.flatMap((line, index) => {
      try {
        const { cents: _cents, ...rest } = priceLine(book, line, index, false);
        return [rest];
      } catch {
        // A line whose frame or option left the catalogue since it was saved is dropped from the view.
        return [];
      }
    });
    const subtotalCents = priced
      .filter((line) => line.available)
      .reduce((sum, line) => sum + Math.round(line.line_total * 100), 0);
    return {
      lines: priced,
      item_count: priced.reduce((sum, line) => sum + line.quantity, 0),
      subtotal: fromCents(subtotalCents),
      updated_at: updatedAt,
    };
  }

  app.get('/api/order/get_cart', async (request) => {
    const user = await requireUser(ctx, request);
    const row = await ctx.db.selectFrom('carts').selectAll().where('user_id', '=', user.id).executeTakeFirst();
    const content = jsonParse<CartContent>(row?.content, { lines: [] });
    return ok(await cartOf(user.id, content.lines, row?.updated_at ?? null));
  });

  app.post('/api/order/upload_cart', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        content: z.string({ required_error: 'is required', invalid_type_error: 'must be a JSON string' }).max(100_000),
      }),
    );
    let decoded: unknown;
    try {
      decoded = JSON.parse(input.content);
    } catch {
      throw new ApiError(400, 'content: must be a JSON string of {lines: [...]}');
    }
    const content = parse(cartContent, decoded);
    const book = await loadPriceBook(ctx.db, content.lines, user.id);
    content.lines.forEach((line, index) => priceLine(book, line, index, false));
    const now = ctx.now();
    const stored = JSON.stringify(content);
    const existing = await ctx.db
      .selectFrom('carts')
      .select('user_id')
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (existing)
      await ctx.db
        .updateTable('carts')
        .set({ content: stored, updated_at: now })
        .where('user_id', '=', user.id)
        .execute();
    else await ctx.db.insertInto('carts').values({ user_id: user.id, content: stored, updated_at: now }).execute();
    return ok(await cartOf(user.id, content.lines, now));
  });

  app.post('/api/order/submit_order', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        client_key: z
          .string({ required_error: 'is required' })
          .trim()
          .min(8, 'must have 8 to 64 characters')
          .max(64, 'must have 8 to 64 characters'),
        address_id: id,
        shipping_method_id: id,
        coupon_code: z.string().trim().max(40).optional(),
        lines: z.array(cartLine).min(1, 'must not be empty').max(MAX_CART_LINES).optional(),
      }),
    );
    const existing = await ctx.db
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', user.id)
      .where('client_key', '=', input.client_key)
      .executeTakeFirst();
    if (existing) return ok(await loadOrder(ctx.db, existing.id, uploadUrlReader(ctx.config, ctx.now)));

    const fromCart = input.lines === undefined;
    const cart = fromCart
      ? await ctx.db.selectFrom('carts').select('content').where('user_id', '=', user.id).executeTakeFirst()
      : undefined;
    const lines = input.lines ?? jsonParse<CartContent>(cart?.content, { lines: [] }).lines;
    if (lines.length === 0) throw new ApiError(400, 'lines: the cart is empty');
    const book = await loadPriceBook(ctx.db, lines, user.id);
    const priced = lines.map((line, index) => priceLine(book, line, index, true));
    priced.forEach((line, index) => {
      if (!line.available)
        throw new ApiError(
          409,
          `lines.${index}: ${line.goods_name} (${line.color_name}) is not available in this quantity`,
        );
    });
    const address = await ctx.db
      .selectFrom('addresses')
      .selectAll()
      .where('id', '=', input.address_id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!address) throw new ApiError(400, 'address_id: no such address');
    const shipping = await ctx.db
      .selectFrom('shipping_methods')
      .selectAll()
      .where('id', '=', input.shipping_method_id)
      .executeTakeFirst();
    if (!shipping) throw new ApiError(400, 'shipping_method_id: no such shipping method');
    const subtotalCents = priced.reduce((sum, line) => sum + line.cents.total, 0);
    const now = ctx.now();
    let couponRow: Awaited<ReturnType<typeof findCoupon>> = undefined;
    async function findCoupon(code: string) {
      return ctx.db.selectFrom('coupons').selectAll().where('code', '=', code.toUpperCase()).executeTakeFirst();
    }
    let couponDiscountCents = 0;
    if (input.coupon_code) {
      couponRow = await findCoupon(input.coupon_code);
      if (!couponRow || couponRow.valid_from > now || couponRow.valid_until <= now)
        throw new ApiError(400, 'coupon_code: no such coupon or it has expired');
      const used = await ctx.db
        .selectFrom('coupon_uses')
        .select('order_id')
        .where('coupon_id', '=', couponRow.id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (used) throw new ApiError(400, 'coupon_code: you have already used this coupon');
      if (subtotalCents < couponRow.threshold_cents) {
        throw new ApiError(
          400,
          `coupon_code: needs a subtotal of at least ${fromCents(couponRow.threshold_cents).toFixed(2)}`,
        );
      }
      couponDiscountCents = couponSavingCents(couponRow, subtotalCents);
    }
    const shippingFeeCents = shippingCents(shipping, subtotalCents - couponDiscountCents);
    const totalCents = subtotalCents - couponDiscountCents + shippingFeeCents;
    const prescriptionsById = new Map(
      [...book.prescriptions].map(([key, value]) => [key, toPrescription(value.row as never)]),
    );

    try {
      const orderId = await ctx.db.transaction().execute(async (trx) => {
        const order = await trx
          .insertInto('orders')
          .values({
            order_sn: orderSn(now),
            user_id: user.id,
            client_key: input.client_key,
            status: 'created',
            subtotal_cents: subtotalCents,
            coupon_id: couponRow?.id ?? null,
            coupon_json: couponRow
              ? JSON.stringify({ coupon_id: couponRow.id, code: couponRow.code, title: couponRow.title })
              : null,
            coupon_discount_cents: couponDiscountCents,
            shipping_fee_cents: shippingFeeCents,
            total_cents: totalCents,
            address_json: JSON.stringify(toAddress(address)),
            shipping_json: JSON.stringify({
              shipping_method_id: shipping.id,
              name: shipping.name,
              min_days: shipping.min_days,
              max_days: shipping.max_days,
            }),
            tracking_no: null,
            carrier: null,
            deleted: 0,
            created_at: now,
            paid_at: null,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const [index, line] of priced.entries()) {
          const stock = await trx
            .updateTable('goods_colors')
            .set((eb) => ({ stock: eb('stock', '-', line.quantity) }))
            .where('goods_id', '=', line.goods_id)
            .where('color_id', '=', line.color_id)
            .where('stock', 'is not', null)
            .where('stock', '>=', line.quantity)
            .executeTakeFirst();
          const tracked = book.colors.get(`${line.goods_id}:${line.color_id}`)?.stock !== null;
          if (tracked && Number(stock.numUpdatedRows) === 0) {
            throw new ApiError(
              409,
              `lines.${index}: ${line.goods_name} (${line.color_name}) is not available in this quantity`,
            );
          }
          await trx
            .insertInto('order_lines')
            .values({
              order_id: order.id,
              goods_id: line.goods_id,
              goods_name: line.goods_name,
              goods_img: line.goods_img,
              color_id: line.color_id,
              color_name: line.color_name,
              quantity: line.quantity,
              frame_price_cents: line.cents.frame,
              lens_json: line.lens_detail ? JSON.stringify(line.lens_detail) : null,
              unit_price_cents: line.cents.unit,
              line_total_cents: line.cents.total,
              prescription_json:
                line.prescription_id != null
                  ? JSON.stringify(prescriptionsById.get(line.prescription_id) ?? null)
                  : null,
            })
            .execute();
        }
        if (couponRow)
          await trx
            .insertInto('coupon_uses')
            .values({ coupon_id: couponRow.id, user_id: user.id, order_id: order.id })
            .execute();
        if (fromCart) await trx.deleteFrom('carts').where('user_id', '=', user.id).execute();
        return order.id;
      });
      return ok(await loadOrder(ctx.db, orderId, uploadUrlReader(ctx.config, ctx.now)));
    } catch (error) {
      // A concurrent retry with the same key won the race: answer its order.
      const winner = await ctx.db
        .selectFrom('orders')
        .select('id')
        .where('user_id', '=', user.id)
        .where('client_key', '=', input.client_key)
        .executeTakeFirst();
      if (winner) return ok(await loadOrder(ctx.db, winner.id, uploadUrlReader(ctx.config, ctx.now)));
      throw error;
    }
  });

  app.post('/api/order/get_user_order', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        ...pageFields,
        status: z.enum(ORDER_STATUSES).optional(),
        order_id: z.number().int().positive().optional(),
      }),
    );
    let base = ctx.db.selectFrom('orders').where('user_id', '=', user.id).where('deleted', '=', 0);
    if (input.status) base = base.where('status', '=', input.status);
    if (input.order_id !== undefined) base = base.where('id', '=', input.order_id);
    const { rows, total } = await pageRows(base, input, (query) =>
      query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    );
    const readUrl = uploadUrlReader(ctx.config, ctx.now);
    return ok({ list: await toOrders(ctx.db, rows, readUrl), total, page: input.page, page_size: input.page_size });
  });

  app.post('/api/order/update_order_status', async (request) => {
    await requireAdmin(ctx, request);
    const input = body(
      request,
      z.object({
        order_id: id,
        status: z.enum(ORDER_STATUSES, {
          errorMap: () => ({ message: `must be one of ${ORDER_STATUSES.join(', ')}` }),
        }),
        tracking_no: z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9-]{6,40}$/, 'must be 6 to 40 letters, digits or dashes')
          .optional(),
        carrier: z.string().trim().max(60).optional(),
      }),
    );
    if (input.status === 'paid') {
      throw new ApiError(400, 'status: an order becomes paid only when the payment provider confirms');
    }
    const order = await ctx.db.selectFrom('orders').selectAll().where('id', '=', input.order_id).executeTakeFirst();
    if (!order) throw new ApiError(404, 'order_id: no such order');
    const from = order.status as OrderStatus;
    if (!canMove(from, input.status))
      throw new ApiError(409, `status: an order that is ${from} cannot become ${input.status}`);
    if (input.status === 'shipped' && !input.tracking_no) throw new ApiError(400, 'tracking_no: is required to ship');
    const now = ctx.now();
    const trackingNo = input.tracking_no?.toUpperCase() ?? order.tracking_no;
    if (input.status === 'shipped' && trackingNo) {
      const known = await ctx.db
        .selectFrom('tracking_registrations')
        .select('tracking_no')
        .where('tracking_no', '=', trackingNo)
        .executeTakeFirst();
      if (!known) {
        await ctx.tracker.register(trackingNo, input.carrier);
        await ctx.db
          .insertInto('tracking_registrations')
          .values({ tracking_no: trackingNo, carrier: input.carrier ?? '', registered_at: now })
          .execute();
      }
    }
    const moved = await ctx.db
      .updateTable('orders')
      .set({ status: input.status, tracking_no: trackingNo, carrier: input.carrier ?? order.carrier, updated_at: now })
      .where('id', '=', order.id)
      .where('status', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw new ApiError(409, 'status: the order changed meanwhile, reload it');
    return ok(await loadOrder(ctx.db, order.id, uploadUrlReader(ctx.config, ctx.now)));
  });

  app.post('/api/order/delete_order', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, z.object({ order_id: id }));
    const order = await ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', input.order_id)
      .where('user_id', '=', user.id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!order) throw new ApiError(404, 'order_id: no such order');
    const status = order.status as OrderStatus;
    if (status === 'paid' || status === 'shipped')
      throw new ApiError(409, 'order_id: an order that is paid or on its way cannot be deleted');
    await ctx.db.transaction().execute(async (trx) => {
      if (status === 'created' && canMove(status, 'cancelled')) {
        const lines = await trx
          .selectFrom('order_lines')
          .select(['goods_id', 'color_id', 'quantity'])
          .where('order_id', '=', order.id)
          .execute();
        for (const line of lines) {
          await trx
            .updateTable('goods_colors')
            .set((eb) => ({ stock: eb('stock', '+', line.quantity) }))
            .where('goods_id', '=', line.goods_id)
            .where('color_id', '=', line.color_id)
            .where('stock', 'is not', null)
            .execute();
        }
        await trx.deleteFrom('coupon_uses').where('order_id', '=', order.id).execute();
      }
      await trx
        .updateTable('orders')
        .set({ deleted: 1, status: status === 'created' ? 'cancelled' : status, updated_at: ctx.now() })
        .where('id', '=', order.id)
        .execute();
    });
    return ok({ deleted: true as const });
  });
}
