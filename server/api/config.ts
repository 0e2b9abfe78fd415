import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { FilterType, ShopConfig } from '../../types/api';
import { optionalUser } from '../auth';
import type { AppContext } from '../context';
import { body, fromCents, money, ok, pageFields, query, toCents } from '../http';
import { couponSavingCents, toCoupon, toShippingMethod } from '../services/pricing';

export function registerConfigRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/config/shop_config', async () => {
    const rows = await ctx.db.selectFrom('settings').selectAll().where('key', 'like', 'shop.%').execute();
    const settings = new Map(rows.map((row) => [row.key.slice('shop.'.length), row.value]));
    const config: ShopConfig = {
      shop_name: settings.get('name') ?? 'Lensmate',
      shop_logo: settings.get('logo') ?? '',
      currency: settings.get('currency') ?? 'USD',
      currency_symbol: settings.get('currency_symbol') ?? '$',
      service_email: settings.get('service_email') ?? '',
      app_version: '1.0.5',
      google_client_id: ctx.config.googleClientId,
      stripe_publishable_key: ctx.config.stripePublishableKey,
    };
    return ok(config);
  });

  app.get('/api/config/get_category_page', async (request) => {
    const input = query(request, z.object(pageFields));
    const [rows, total] = await Promise.all([
      ctx.db
        .selectFrom('categories')
        .selectAll()
        .orderBy('sort')
        .orderBy('id')
        .limit(input.page_size)
        .offset((input.page - 1) * input.page_size)
        .execute(),
      ctx.db
        .selectFrom('categories')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return ok({
      list: rows.map((row) => ({ category_id: row.id, category_name: row.name, category_img: row.img })),
      total: Number(total.n),
      page: input.page,
      page_size: input.page_size,
    });
  });

  app.get('/api/config/get_colors', async () => {
    const rows = await ctx.db.selectFrom('colors').selectAll().orderBy('id').execute();
    return ok(
      rows.map((row) => ({ color_id: row.id, color_name: row.name, color_img: row.img, color_value: row.value })),
    );
  });

  app.get('/api/config/get_countries', async () => {
    const rows = await ctx.db.selectFrom('countries').selectAll().orderBy('name').execute();
    return ok(rows.map((row) => ({ country_code: row.code, name: row.name, phone_code: row.phone_code })));
  });

  app.get('/api/config/get_coupons', async () => {
    const now = ctx.now();
    const rows = await ctx.db
      .selectFrom('coupons')
      .selectAll()
      .where('valid_from', '<=', now)
      .where('valid_until', '>', now)
      .orderBy('id')
      .execute();
    return ok(rows.map(toCoupon));
  });

  app.get('/api/config/get_discount', async () => {
    const rows = await ctx.db
      .selectFrom('goods')
      .select(['discount', (eb) => eb.fn.countAll<number>().as('n')])
      .where('deleted', '=', 0)
      .where('on_sale', '=', 1)
      .where('discount', '<', 100)
      .groupBy('discount')
      .orderBy('discount')
      .execute();
    return ok(
      rows.map((row) => ({ discount: row.discount, shown_discount: 100 - row.discount, goods_count: Number(row.n) })),
    );
  });

  app.get('/api/config/get_filters', async () => {
    const rows = await ctx.db.selectFrom('filters').selectAll().orderBy('sort').orderBy('id').execute();
    return ok(
      rows.map((row) => ({
        filter_id: row.id,
        filter_name: row.name,
        filter_img: row.img,
        type: row.type as FilterType,
      })),
    );
  });

  app.post('/api/config/get_recommend_coupons', async (request) => {
    const input = body(request, z.object({ subtotal: money }));
    const user = await optionalUser(ctx, request);
    const now = ctx.now();
    const subtotalCents = toCents(input.subtotal);
    let coupons = ctx.db
      .selectFrom('coupons')
      .selectAll()
      .where('valid_from', '<=', now)
      .where('valid_until', '>', now)
      .where('threshold_cents', '<=', subtotalCents);
    if (user) {
      coupons = coupons.where('id', 'not in', (eb) =>
        eb.selectFrom('coupon_uses').select('coupon_id').where('user_id', '=', user.id),
      );
    }
    const rows = await coupons.execute();
    const ranked = rows
      .map((row) => ({ ...toCoupon(row), saving: fromCents(couponSavingCents(row, subtotalCents)) }))
      .filter((coupon) => coupon.saving > 0)
      .sort((a, b) => b.saving - a.saving);
    return ok(ranked);
  });

  app.post('/api/config/get_shipping_method', async (request) => {
    const input = body(
      request,
      z.object({
        subtotal: money.default(0),
        country_code: z
          .string()
          .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code')
          .optional(),
      }),
    );
    const rows = await ctx.db.selectFrom('shipping_methods').selectAll().orderBy('sort').orderBy('id').execute();
    return ok(rows.map((row) => toShippingMethod(row, toCents(input.subtotal))));
  });
}
