import type { Generated } from 'kysely';
import type { OrderEventsTable } from './order-schema';
import type { PaymentEventsTable, RefundsTable } from './payment-schema';
import type { ReviewsTable } from './review-schema';
import type { SocialTables } from './social-schema';

/**
 * The product tables. Portable column types only: integers (ids, money in cents, flags as 0/1,
 * times as epoch milliseconds), doubles and text (JSON documents kept as text), so one schema runs
 * on SQLite and PostgreSQL.
 */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  nickname: string;
  avatar: string;
  bio: string;
  is_admin: number;
  google_sub: string | null;
  created_at: number;
}

/** A WeChat user (openid under one appid) linked to one shop account: signing in with WeChat reaches it. */
export interface WechatAccountsTable {
  appid: string;
  openid: string;
  user_id: number;
  created_at: number;
}

export interface TokensTable {
  token_hash: string;
  user_id: number;
  created_at: number;
  /** Moved forward (at most once a minute) by each request the token signs: the idle expiry slides from it. */
  last_used_at: number;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  email: string;
  code_hash: string;
  expires_at: number;
  attempts: number;
  used: number;
  created_at: number;
}

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  img: string;
  sort: number;
}

export interface ColorsTable {
  id: Generated<number>;
  name: string;
  img: string;
  value: string;
}

export interface FiltersTable {
  id: Generated<number>;
  name: string;
  img: string;
  type: string;
  sort: number;
}

export interface GoodsTable {
  id: Generated<number>;
  name: string;
  img: string;
  description: string;
  shop_price_cents: number;
  discount: number;
  final_price_cents: number;
  category_id: number | null;
  on_sale: number;
  lens_width: number;
  bridge_width: number;
  temple_length: number;
  search_text: string;
  deleted: number;
  created_at: number;
  updated_at: number;
}

export interface GoodsColorsTable {
  id: Generated<number>;
  goods_id: number;
  color_id: number;
  images: string;
  stock: number | null;
  sort: number;
}

export interface GoodsFiltersTable {
  goods_id: number;
  filter_id: number;
}

export interface LensTypesTable {
  id: Generated<number>;
  name: string;
  description: string;
  price_cents: number;
  needs_prescription: number;
  needs_add: number;
  sort: number;
}

export interface LensesTable {
  id: Generated<number>;
  lens_type_id: number;
  name: string;
  description: string;
  price_cents: number;
  sort: number;
}

export interface LensThicknessTable {
  id: Generated<number>;
  index_value: number;
  name: string;
  description: string;
  price_cents: number;
}

export interface LensCoatingsTable {
  id: Generated<number>;
  name: string;
  description: string;
  price_cents: number;
}

export interface LensColorsTable {
  id: Generated<number>;
  name: string;
  value: string;
  kind: string;
  price_cents: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface ArticleCategoriesTable {
  id: Generated<number>;
  name: string;
}

export interface ArticlesTable {
  id: Generated<number>;
  title: string;
  cover: string;
  imgs: string;
  content: string;
  category_id: number | null;
  author_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface CountriesTable {
  code: string;
  name: string;
  phone_code: string;
}

export interface AddressesTable {
  id: Generated<number>;
  user_id: number;
  first_name: string;
  last_name: string;
  phone: string;
  country_code: string;
  province: string;
  city: string;
  street: string;
  street2: string;
  zip: string;
  is_default: number;
  created_at: number;
}

export interface PrescriptionsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  data: string;
  image_url: string | null;
  note: string;
  created_at: number;
}

export interface CartsTable {
  user_id: number;
  content: string;
  updated_at: number;
}

export interface CouponsTable {
  id: Generated<number>;
  code: string;
  title: string;
  kind: string;
  value: number;
  threshold_cents: number;
  valid_from: number;
  valid_until: number;
}

export interface CouponUsesTable {
  coupon_id: number;
  user_id: number;
  order_id: number;
}

export interface ShippingMethodsTable {
  id: Generated<number>;
  name: string;
  description: string;
  price_cents: number;
  free_threshold_cents: number | null;
  min_days: number;
  max_days: number;
  sort: number;
}

export interface OrdersTable {
  id: Generated<number>;
  order_sn: string;
  user_id: number;
  client_key: string;
  status: string;
  subtotal_cents: number;
  coupon_id: number | null;
  coupon_json: string | null;
  coupon_discount_cents: number;
  shipping_fee_cents: number;
  total_cents: number;
  address_json: string;
  shipping_json: string;
  tracking_no: string | null;
  carrier: string | null;
  deleted: number;
  created_at: number;
  paid_at: number | null;
  updated_at: number;
  /** What was given back so far (services/order-lifecycle.ts); the order is refunded when it reaches the total. */
  refunded_cents: Generated<number>;
  shipped_at: number | null;
  delivered_at: number | null;
}

export interface OrderLinesTable {
  id: Generated<number>;
  order_id: number;
  goods_id: number;
  goods_name: string;
  goods_img: string;
  color_id: number;
  color_name: string;
  quantity: number;
  frame_price_cents: number;
  lens_json: string | null;
  unit_price_cents: number;
  line_total_cents: number;
  prescription_json: string | null;
}

export interface PaymentsTable {
  id: Generated<number>;
  order_id: number;
  provider: string;
  reference: string;
  status: string;
  amount_cents: number;
  /** Added by the payments migration (payment-schema.ts). */
  currency: Generated<string>;
  failure: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface TrackingRegistrationsTable {
  tracking_no: string;
  carrier: string;
  registered_at: number;
  polled_at: Generated<number>;
}

/** One row (id 1): the catalogue version that triggers move on every change to the listed goods. */
export interface CatalogueStateTable {
  id: number;
  /** Moved by every change to the listed catalogue (goods, their colours and filters), not by stock. */
  version: number;
  /** Moved by every change of a colour's stock. */
  stock_version: Generated<number>;
}

/** Every table of the shop's database: the core ones here, the social and review ones beside them. */
export interface Database extends SocialTables {
  reviews: ReviewsTable;
  users: UsersTable;
  tokens: TokensTable;
  wechat_accounts: WechatAccountsTable;
  verification_codes: VerificationCodesTable;
  categories: CategoriesTable;
  colors: ColorsTable;
  filters: FiltersTable;
  goods: GoodsTable;
  goods_colors: GoodsColorsTable;
  goods_filters: GoodsFiltersTable;
  lens_types: LensTypesTable;
  lenses: LensesTable;
  lens_thickness: LensThicknessTable;
  lens_coatings: LensCoatingsTable;
  lens_colors: LensColorsTable;
  settings: SettingsTable;
  article_categories: ArticleCategoriesTable;
  articles: ArticlesTable;
  countries: CountriesTable;
  addresses: AddressesTable;
  prescriptions: PrescriptionsTable;
  carts: CartsTable;
  coupons: CouponsTable;
  coupon_uses: CouponUsesTable;
  shipping_methods: ShippingMethodsTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
  order_events: OrderEventsTable;
  refunds: RefundsTable;
  tracking_registrations: TrackingRegistrationsTable;
  catalogue_state: CatalogueStateTable;
}
