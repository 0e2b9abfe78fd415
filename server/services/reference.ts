import type {
  Category,
  Color,
  Country,
  Coupon,
  DiscountOption,
  Filter,
  FilterType,
  Page,
  RecommendedCoupon,
  ShippingMethod,
  ShopConfig,
} from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import type { AppContext } from '../context';
import { fromCents, toCents } from '../http';
import { couponSavingCents, toCoupon, toShippingMethod } from './pricing';

/** The shop's settings the app shows (name, logo, currency, contact) and the client ids of its providers. */
export async function shopConfig(ctx: AppContext): Promise<ShopConfig> {
  const rows = await ctx.db.selectFrom('settings').selectAll().where('key', 'like', 'shop.%').execute();
  const settings = new Map(rows.map((row) => [row.key.slice('shop.'.length), row.value]));
  return {
    shop_name: settings.get('name') ?? 'Lensmate',
    shop_logo: settings.get('logo') ?? '',
    currency: settings.get('currency') ?? 'USD',
    currency_symbol: settings.get('currency_symbol') ?? '$',
    service_email: settings.get('service_email') ?? '',
    app_version: '1.0.5',
    google_client_id: ctx.config.googleClientId,
    stripe_publishable_key: ctx.config.stripePublishableKey,
  };
}

export async function categoryPage(
  ctx: AppContext,
  input: ParsedRequestOf<'GET /api/config/get_category_page'>,
): Promise<Page<Category>> {
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
  return {
    list: rows.map((row) => ({ category_id: row.id, category_name: row.name, category_img: row.img })),
    total: Number(total.n),
    page: input.page,
    page_size: input.page_size,
  };
}

export async function colors(ctx: AppContext): Promise<Color[]> {
  const rows = await ctx.db.selectFrom('colors').selectAll().orderBy('id').execute();
  return rows.map((row) => ({ color_id: row.id, color_name: row.name, color_img: row.img, color_value: row.value }));
}

export async function countries(ctx: AppContext): Promise<Country[]> {
  const rows = await ctx.db.selectFrom('countries').selectAll().orderBy('name').execute();
  return rows.map((row) => ({ country_code: row.code, name: row.name, phone_code: row.phone_code }));
}

/** The coupons valid now. */
export async function coupons(ctx: AppContext): Promise<Coupon[]> {
  const now = ctx.now();
  const rows = await ctx.db
    .selectFrom('coupons')
    .selectAll()
    .where('valid_from', '<=', now)
    .where('valid_until', '>', now)
    .orderBy('id')
    .execute();
  return rows.map(toCoupon);
}

/** The discounts of the frames on sale, with how many frames have each. */
export async function discounts(ctx: AppContext): Promise<DiscountOption[]> {
  const rows = await ctx.db
    .selectFrom('goods')
    .select(['discount', (eb) => eb.fn.countAll<number>().as('n')])
    .where('deleted', '=', 0)
    .where('on_sale', '=', 1)
    .where('discount', '<', 100)
    .groupBy('discount')
    .orderBy('discount')
    .execute();
  return rows.map((row) => ({
    discount: row.discount,
    shown_discount: 100 - row.discount,
    goods_count: Number(row.n),
  }));
}

export async function filters(ctx: AppContext): Promise<Filter[]> {
  const rows = await ctx.db.selectFrom('filters').selectAll().orderBy('sort').orderBy('id').execute();
  return rows.map((row) => ({
    filter_id: row.id,
    filter_name: row.name,
    filter_img: row.img,
    type: row.type as FilterType,
  }));
}

/** The coupons valid now for a subtotal, less those the user already used, best saving first. */
export async function recommendedCoupons(
  ctx: AppContext,
  userId: number | null,
  subtotal: number,
): Promise<RecommendedCoupon[]> {
  const now = ctx.now();
  const subtotalCents = toCents(subtotal);
  let query = ctx.db
    .selectFrom('coupons')
    .selectAll()
    .where('valid_from', '<=', now)
    .where('valid_until', '>', now)
    .where('threshold_cents', '<=', subtotalCents);
  if (userId !== null) {
    query = query.where('id', 'not in', (eb) =>
      eb.selectFrom('coupon_uses').select('coupon_id').where('user_id', '=', userId),
    );
  }
  const rows = await query.execute();
  return rows
    .map((row) => ({ ...toCoupon(row), saving: fromCents(couponSavingCents(row, subtotalCents)) }))
    .filter((coupon) => coupon.saving > 0)
    .sort((a, b) => b.saving - a.saving);
}

/** Every shipping method, priced for the subtotal. */
export async function shippingMethods(ctx: AppContext, subtotal: number): Promise<ShippingMethod[]> {
  const rows = await ctx.db.selectFrom('shipping_methods').selectAll().orderBy('sort').orderBy('id').execute();
  return rows.map((row) => toShippingMethod(row, toCents(subtotal)));
}
