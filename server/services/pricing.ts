import type { Kysely, Selectable } from 'kysely';
import type { CartLine, CartLineInput, Coupon, CouponKind, PricedLens, ShippingMethod } from '../../types/api';
import type { CouponsTable, Database, ShippingMethodsTable } from '../db/schema';
import { ApiError, fromCents, jsonParse } from '../http';
import { type PrescriptionData, hasAdd, hasPrism } from './prescription';

/** Everything the server needs to price lines, read once per request. */
export interface PriceBook {
  goods: Map<number, { name: string; img: string; final_price_cents: number; on_sale: number; deleted: number }>;
  colors: Map<string, { name: string; stock: number | null }>;
  lensTypes: Map<number, { name: string; price_cents: number; needs_prescription: number; needs_add: number }>;
  lenses: Map<number, { lens_type_id: number; name: string; price_cents: number }>;
  thickness: Map<number, { name: string; index_value: number; price_cents: number }>;
  coatings: Map<number, { name: string; price_cents: number }>;
  lensColors: Map<number, { name: string; price_cents: number }>;
  prescriptions: Map<number, { data: PrescriptionData; row: Record<string, unknown> }>;
  prismPriceCents: number;
}

export async function loadPriceBook(
  db: Kysely<Database>,
  lines: CartLineInput[],
  userId: number | null,
): Promise<PriceBook> {
  const goodsIds = [...new Set(lines.map((line) => line.goods_id))];
  const prescriptionIds = [
    ...new Set(lines.map((line) => line.prescription_id).filter((v): v is number => typeof v === 'number')),
  ];
  const [goods, colors, lensTypes, lenses, thickness, coatings, lensColors, prescriptions, prism] = await Promise.all([
    goodsIds.length
      ? db
          .selectFrom('goods')
          .select(['id', 'name', 'img', 'final_price_cents', 'on_sale', 'deleted'])
          .where('id', 'in', goodsIds)
          .execute()
      : [],
    goodsIds.length
      ? db
          .selectFrom('goods_colors')
          .innerJoin('colors', 'colors.id', 'goods_colors.color_id')
          .select(['goods_colors.goods_id', 'goods_colors.color_id', 'goods_colors.stock', 'colors.name'])
          .where('goods_colors.goods_id', 'in', goodsIds)
          .execute()
      : [],
    db.selectFrom('lens_types').selectAll().execute(),
    db.selectFrom('lenses').selectAll().execute(),
    db.selectFrom('lens_thickness').selectAll().execute(),
    db.selectFrom('lens_coatings').selectAll().execute(),
    db.selectFrom('lens_colors').selectAll().execute(),
    prescriptionIds.length && userId !== null
      ? db
          .selectFrom('prescriptions')
          .selectAll()
          .where('id', 'in', prescriptionIds)
          .where('user_id', '=', userId)
          .execute()
      : [],
    db.selectFrom('settings').select('value').where('key', '=', 'prism_price_cents').executeTakeFirst(),
  ]);
  return {
    goods: new Map(goods.map((row) => [row.id, row])),
    colors: new Map(colors.map((row) => [`${row.goods_id}:${row.color_id}`, { name: row.name, stock: row.stock }])),
    lensTypes: new Map(lensTypes.map((row) => [row.id, row])),
    lenses: new Map(lenses.map((row) => [row.id, row])),
    thickness: new Map(thickness.map((row) => [row.id, row])),
    coatings: new Map(coatings.map((row) => [row.id, row])),
    lensColors: new Map(lensColors.map((row) => [row.id, row])),
    prescriptions: new Map(
      prescriptions.map((row) => [
        row.id,
        { data: jsonParse<PrescriptionData>(row.data, {} as PrescriptionData), row },
      ]),
    ),
    prismPriceCents: Number(prism?.value ?? 0),
  };
}

/**
 * Prices one line from the catalogue. `requirePrescription` (at order time) insists on a saved
 * prescription when the lens type needs one; a cart may hold the line before it is chosen.
 */
export function priceLine(
  book: PriceBook,
  line: CartLineInput,
  index: number,
  requirePrescription: boolean,
): CartLine & { cents: { frame: number; lens: number; unit: number; total: number } } {
  const at = `lines.${index}`;
  const goods = book.goods.get(line.goods_id);
  if (!goods || goods.deleted === 1) throw new ApiError(400, `${at}.goods_id: no such glasses`);
  const color = book.colors.get(`${line.goods_id}:${line.color_id}`);
  if (!color) throw new ApiError(400, `${at}.color_id: these glasses do not come in this colour`);
  let lensCents = 0;
  let lensDetail: PricedLens | null = null;
  if (line.prescription_id != null && !book.prescriptions.has(line.prescription_id)) {
    throw new ApiError(400, `${at}.prescription_id: no such prescription`);
  }
  const prescription = line.prescription_id != null ? book.prescriptions.get(line.prescription_id) : undefined;
  if (line.lens) {
    const choice = line.lens;
    const type = book.lensTypes.get(choice.lens_type_id);
    if (!type) throw new ApiError(400, `${at}.lens.lens_type_id: no such lens type`);
    const lens = choice.lens_id != null ? book.lenses.get(choice.lens_id) : undefined;
    if (choice.lens_id != null && (!lens || lens.lens_type_id !== choice.lens_type_id)) {
      throw new ApiError(400, `${at}.lens.lens_id: not a lens of this lens type`);
    }
    const thickness = choice.thickness_id != null ? book.thickness.get(choice.thickness_id) : undefined;
    if (choice.thickness_id != null && !thickness)
      throw new ApiError(400, `${at}.lens.thickness_id: no such lens index`);
    const coatingIds = [...new Set(choice.coating_ids ?? [])];
    const coatings = coatingIds.map((coatingId) => {
      const coating = book.coatings.get(coatingId);
      if (!coating) throw new ApiError(400, `${at}.lens.coating_ids: no such coating ${coatingId}`);
      return {
        coating_id: coatingId,
        name: coating.name,
        price: fromCents(coating.price_cents),
        cents: coating.price_cents,
      };
    });
    const lensColor = choice.lens_color_id != null ? book.lensColors.get(choice.lens_color_id) : undefined;
    if (choice.lens_color_id != null && !lensColor)
      throw new ApiError(400, `${at}.lens.lens_color_id: no such lens colour`);
    if (type.needs_prescription === 1 && requirePrescription && !prescription) {
      throw new ApiError(400, `${at}.prescription_id: ${type.name} lenses need a prescription`);
    }
    if (type.needs_add === 1 && prescription && !hasAdd(prescription.data)) {
      throw new ApiError(400, `${at}.prescription_id: ${type.name} lenses need the ADD value in the prescription`);
    }
    const prismCents = prescription && hasPrism(prescription.data) ? book.prismPriceCents : 0;
    lensCents =
      type.price_cents +
      (lens?.price_cents ?? 0) +
      (thickness?.price_cents ?? 0) +
      coatings.reduce((sum, coating) => sum + coating.cents, 0) +
      (lensColor?.price_cents ?? 0) +
      prismCents;
    lensDetail = {
      lens_type: { lens_type_id: choice.lens_type_id, name: type.name, price: fromCents(type.price_cents) },
      lens:
        lens && choice.lens_id != null
          ? { lens_id: choice.lens_id, name: lens.name, price: fromCents(lens.price_cents) }
          : null,
      thickness:
        thickness && choice.thickness_id != null
          ? {
              thickness_id: choice.thickness_id,
              name: thickness.name,
              index: thickness.index_value,
              price: fromCents(thickness.price_cents),
            }
          : null,
      coatings: coatings.map(({ cents: _cents, ...coating }) => coating),
      lens_color:
        lensColor && choice.lens_color_id != null
          ? { lens_color_id: choice.lens_color_id, name: lensColor.name, price: fromCents(lensColor.price_cents) }
          : null,
      prism_price: fromCents(prismCents),
      total: fromCents(lensCents),
    };
  }
  const unitCents = goods.final_price_cents + lensCents;
  const totalCents = unitCents * line.quantity;
  const available = goods.on_sale === 1 && (color.stock === null || color.stock >= line.quantity);
  return {
    ...line,
    goods_name: goods.name,
    goods_img: goods.img,
    color_name: color.name,
    frame_price: fromCents(goods.final_price_cents),
    lens_detail: lensDetail,
    unit_price: fromCents(unitCents),
    line_total: fromCents(totalCents),
    available,
    cents: { frame: goods.final_price_cents, lens: lensCents, unit: unitCents, total: totalCents },
  };
}

export function toCoupon(row: Selectable<CouponsTable>): Coupon {
  return {
    coupon_id: row.id,
    code: row.code,
    title: row.title,
    kind: row.kind as CouponKind,
    value: row.kind === 'amount' ? fromCents(row.value) : row.value,
    threshold: fromCents(row.threshold_cents),
    valid_from: row.valid_from,
    valid_until: row.valid_until,
  };
}

/** What the coupon takes off, in cents; 0 below its threshold. */
export function couponSavingCents(row: Selectable<CouponsTable>, subtotalCents: number): number {
  if (subtotalCents < row.threshold_cents) return 0;
  if (row.kind === 'amount') return Math.min(row.value, subtotalCents);
  return Math.round((subtotalCents * row.value) / 100);
}

export function shippingCents(row: Selectable<ShippingMethodsTable>, subtotalCents: number): number {
  return row.free_threshold_cents !== null && subtotalCents >= row.free_threshold_cents ? 0 : row.price_cents;
}

export function toShippingMethod(row: Selectable<ShippingMethodsTable>, subtotalCents: number): ShippingMethod {
  return {
    shipping_method_id: row.id,
    name: row.name,
    description: row.description,
    price: fromCents(shippingCents(row, subtotalCents)),
    base_price: fromCents(row.price_cents),
    free_threshold: row.free_threshold_cents === null ? null : fromCents(row.free_threshold_cents),
    min_days: row.min_days,
    max_days: row.max_days,
  };
}
