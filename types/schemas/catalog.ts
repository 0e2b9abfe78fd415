/** The catalogue: frames (goods), their colours and filters, categories, lenses and their options. */
import { z } from 'zod';
import { FILTER_TYPES } from '../constants';
import { adminListFields, bodyId, id, money, page, pageFields, requiredText } from './common';

export const filterType = z.enum(FILTER_TYPES);

export const filter = z.object({
  filter_id: z.number(),
  filter_name: z.string(),
  filter_img: z.string(),
  type: filterType,
});

export const color = z.object({
  color_id: z.number(),
  color_name: z.string(),
  /** A swatch image URL. */
  color_img: z.string(),
  /** CSS colour of the swatch, e.g. `#1f2937`. */
  color_value: z.string(),
});

/** One colour of one frame, an entry of `Goods.color_arr`. */
export const goodsColor = color.extend({
  goods_color_img: z.array(z.string()),
  /** null: not tracked (always available). */
  stock: z.number().nullable(),
});

export const category = z.object({
  category_id: z.number(),
  category_name: z.string(),
  category_img: z.string(),
});

export const goods = z.object({
  goods_id: z.number(),
  goods_name: z.string(),
  goods_img: z.string(),
  goods_desc: z.string(),
  shop_price: z.number(),
  /** Stored percent-of-price factor: 80 means the shopper pays 80 %. */
  discount: z.number(),
  /** `shop_price × discount / 100`, computed by the server. */
  final_price: z.number(),
  /** What the app shows as the discount: `100 − discount`. */
  shown_discount: z.number(),
  category_id: z.number().nullable(),
  filters: z.array(filter),
  color_arr: z.array(goodsColor),
  lens_width: z.number(),
  bridge_width: z.number(),
  temple_length: z.number(),
  /** false once unlisted: hidden from shoppers, kept for existing orders. */
  is_on_sale: z.boolean(),
  created_at: z.number(),
});

/**
 * A frame as a list shows it (get_goods_page, search_page): picture, name, prices, the colour dots with their stock;
 * a 20-frame page stays under 8 KB. Its description, filters, category, every colour's pictures, measurements and
 * dates are in the frame's own answer (get_goods_by_id); the shown discount is `100 − discount`.
 */
export const goodsCardColor = color.omit({ color_img: true }).extend({
  /** null: not tracked (always available). */
  stock: z.number().nullable(),
});

export const goodsCard = goods
  .pick({
    goods_id: true,
    goods_name: true,
    goods_img: true,
    shop_price: true,
    discount: true,
    final_price: true,
    is_on_sale: true,
  })
  .extend({ color_arr: z.array(goodsCardColor) });

export const GOODS_SORTS = ['newest', 'price_asc', 'price_desc', 'discount'] as const;
export const goodsSort = z.enum(GOODS_SORTS, {
  errorMap: () => ({ message: 'must be newest, price_asc, price_desc or discount' }),
});
const idList = z.array(z.number({ invalid_type_error: 'must be a list of ids' }).int().positive()).max(50);

export const goodsPageRequest = z.object({
  ...pageFields,
  /** Frames having any of these colours. */
  color_ids: idList.optional(),
  /** OR within one filter type, AND across types. */
  filter_ids: idList.optional(),
  category_id: bodyId.optional(),
  sort: goodsSort.default('newest'),
  /** Admin only: include unlisted frames. */
  include_unlisted: z.boolean().default(false),
});

export const searchPageRequest = z.object({
  ...pageFields,
  keyword: requiredText(100),
  sort: goodsSort.default('newest'),
});

/** Admin: every frame but the deleted ones (unlisted too), newest first; `q` finds a name or an id (`17`, `#17`). */
export const adminGoodsListRequest = z.object({ ...adminListFields });

export const goodsIdRequest = z.object({ goods_id: id });

export const saveGoodsRequest = z.object({
  /** Absent: create. */
  goods_id: bodyId.optional(),
  goods_name: requiredText(120),
  goods_img: requiredText(500),
  goods_desc: z.string().max(5000).default(''),
  shop_price: money.refine((value) => value > 0, 'must be more than 0'),
  /** 1 to 100. */
  discount: z
    .number({ required_error: 'is required' })
    .int('must be a whole percent')
    .min(1, 'must be from 1 to 100')
    .max(100, 'must be from 1 to 100'),
  category_id: bodyId.nullable().default(null),
  filter_ids: idList.default([]),
  color_arr: z
    .array(
      z.object({
        color_id: z.number({ required_error: 'is required' }).int().positive(),
        goods_color_img: z.array(z.string().min(1).max(500)).max(20).default([]),
        stock: z.number().int().min(0, 'must be 0 or more').nullable().default(null),
      }),
    )
    .min(1, 'needs at least one colour')
    .max(30),
  lens_width: z.number().int().min(0).max(100).default(0),
  bridge_width: z.number().int().min(0).max(50).default(0),
  temple_length: z.number().int().min(0).max(200).default(0),
  is_on_sale: z.boolean().default(true),
});

export const unlistGoodsRequest = z.object({
  goods_id: id,
  /** false puts the frame back on sale. */
  unlisted: z.boolean().default(true),
});

export const SAVE_TO = ['MYPRESCRIPTION', 'GOODS', 'ARTICLE', 'AVATAR'] as const;

/** The form of the multipart uploads: the file and where it goes. */
export const uploadForm = z.object({
  save_to: z.string().describe(`One of ${SAVE_TO.join(', ')}`),
});

export const uploadResult = z.object({
  url: z.string(),
  file_name: z.string(),
  kind: z.enum(['image', 'video']),
});

/* ---- lenses */

export const lens = z.object({
  lens_id: z.number(),
  lens_type_id: z.number(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
});

export const lensType = z.object({
  lens_type_id: z.number(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  /** false for frame-only / plano lenses: no prescription is asked for. */
  needs_prescription: z.boolean(),
  /** Progressive and reading lenses need the ADD value. */
  needs_add: z.boolean(),
  lenses: z.array(lens),
});

export const lensThickness = z.object({
  thickness_id: z.number(),
  /** Refractive index, e.g. 1.61. */
  index: z.number(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
});

export const lensCoating = z.object({
  coating_id: z.number(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
});

export const LENS_COLOR_KINDS = ['clear', 'tint', 'photochromic', 'polarized'] as const;

export const lensColor = z.object({
  lens_color_id: z.number(),
  name: z.string(),
  color_value: z.string(),
  kind: z.enum(LENS_COLOR_KINDS),
  price: z.number(),
});

/** Added once per pair when either eye has a prism. */
export const prismPrice = z.object({ price: z.number() });

export const goodsPage = page(goodsCard);
