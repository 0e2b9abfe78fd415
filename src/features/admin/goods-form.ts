import { finalPrice, formatPrice } from '@/utils/format';
import type { Goods, SaveGoodsRequest } from '../../../types/api';

export interface ColourEntry {
  color_id: number;
  images: string[];
  /** '' means not tracked. */
  stock: string;
}

export interface GoodsForm {
  goods_id?: number;
  name: string;
  description: string;
  image: string;
  price: string;
  /** The stored percent-of-price factor as typed: 80 means the shopper pays 80 %. */
  discount: string;
  category_id: number | null;
  filter_ids: number[];
  colours: ColourEntry[];
  is_on_sale: boolean;
}

export type GoodsErrors = Partial<Record<'name' | 'image' | 'price' | 'discount' | 'colours' | 'stock', string>>;

export const NAME_REQUIRED = 'Please enter the name of the glasses';
export const NAME_TOO_LONG = 'Use at most 120 characters';
export const IMAGE_REQUIRED = 'Please upload the main image';
export const PRICE_INVALID = 'Enter a price above 0 with at most 2 decimals, e.g. 89.00';
export const DISCOUNT_INVALID = 'Enter a whole percent from 1 to 100 (100 = full price)';
export const COLOUR_REQUIRED = 'Choose at least one colour';
export const STOCK_INVALID = 'Stock must be a whole number of 0 or more, or empty';

export const EMPTY_GOODS: GoodsForm = {
  name: '',
  description: '',
  image: '',
  price: '',
  discount: '100',
  category_id: null,
  filter_ids: [],
  colours: [],
  is_on_sale: true,
};

export function goodsToForm(goods: Goods): GoodsForm {
  return {
    goods_id: goods.goods_id,
    name: goods.goods_name,
    description: goods.goods_desc,
    image: goods.goods_img,
    price: formatPrice(goods.shop_price),
    discount: String(goods.discount),
    category_id: goods.category_id,
    filter_ids: goods.filters.map((filter) => filter.filter_id),
    colours: goods.color_arr.map((colour) => ({
      color_id: colour.color_id,
      images: colour.goods_color_img,
      stock: colour.stock === null ? '' : String(colour.stock),
    })),
    is_on_sale: goods.is_on_sale,
  };
}

const PRICE_PATTERN = /^\d{1,7}(\.\d{1,2})?$/;

export function validateGoods(form: GoodsForm): GoodsErrors {
  const errors: GoodsErrors = {};
  const name = form.name.trim();
  if (name === '') errors.name = NAME_REQUIRED;
  else if (name.length > 120) errors.name = NAME_TOO_LONG;
  if (form.image === '') errors.image = IMAGE_REQUIRED;
  if (!PRICE_PATTERN.test(form.price.trim()) || Number(form.price) <= 0) errors.price = PRICE_INVALID;
  const discount = Number(form.discount);
  if (!/^\d{1,3}$/.test(form.discount.trim()) || discount < 1 || discount > 100) errors.discount = DISCOUNT_INVALID;
  if (form.colours.length === 0) errors.colours = COLOUR_REQUIRED;
  if (form.colours.some((colour) => colour.stock.trim() !== '' && !/^\d{1,6}$/.test(colour.stock.trim()))) {
    errors.stock = STOCK_INVALID;
  }
  return errors;
}

/** What the shopper pays and the discount they see, or '' while the price or discount is not valid. */
export function pricePreview(form: GoodsForm): string {
  const errors = validateGoods(form);
  if (errors.price || errors.discount) return '';
  const discount = Number(form.discount);
  const pays = formatPrice(finalPrice(Number(form.price), discount));
  return discount === 100 ? `Shoppers pay ${pays} (no discount)` : `Shoppers pay ${pays} (${100 - discount}% off)`;
}

export function formToRequest(form: GoodsForm): SaveGoodsRequest {
  return {
    ...(form.goods_id ? { goods_id: form.goods_id } : {}),
    goods_name: form.name.trim(),
    goods_desc: form.description,
    goods_img: form.image,
    shop_price: Number(form.price),
    discount: Number(form.discount),
    category_id: form.category_id,
    filter_ids: form.filter_ids,
    color_arr: form.colours.map((colour) => ({
      color_id: colour.color_id,
      goods_color_img: colour.images,
      stock: colour.stock.trim() === '' ? null : Number(colour.stock),
    })),
    is_on_sale: form.is_on_sale,
  };
}

export function toggle(ids: number[], id: number): number[] {
  return ids.includes(id) ? ids.filter((value) => value !== id) : [...ids, id];
}
