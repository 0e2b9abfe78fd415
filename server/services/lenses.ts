import type { LensCoating, LensColor, LensColorKind, LensThickness, LensType, PrismPrice } from '../../types/api';
import type { AppContext } from '../context';
import { fromCents } from '../http';

/** Lens types with their lenses, in the catalogue's order. */
export async function lensTypes(ctx: AppContext): Promise<LensType[]> {
  const [types, lenses] = await Promise.all([
    ctx.db.selectFrom('lens_types').selectAll().orderBy('sort').orderBy('id').execute(),
    ctx.db.selectFrom('lenses').selectAll().orderBy('sort').orderBy('id').execute(),
  ]);
  return types.map((type) => ({
    lens_type_id: type.id,
    name: type.name,
    description: type.description,
    price: fromCents(type.price_cents),
    needs_prescription: type.needs_prescription === 1,
    needs_add: type.needs_add === 1,
    lenses: lenses
      .filter((lens) => lens.lens_type_id === type.id)
      .map((lens) => ({
        lens_id: lens.id,
        lens_type_id: lens.lens_type_id,
        name: lens.name,
        description: lens.description,
        price: fromCents(lens.price_cents),
      })),
  }));
}

export async function lensColors(ctx: AppContext): Promise<LensColor[]> {
  const rows = await ctx.db.selectFrom('lens_colors').selectAll().orderBy('id').execute();
  return rows.map((row) => ({
    lens_color_id: row.id,
    name: row.name,
    color_value: row.value,
    kind: row.kind as LensColorKind,
    price: fromCents(row.price_cents),
  }));
}

export async function lensThickness(ctx: AppContext): Promise<LensThickness[]> {
  const rows = await ctx.db.selectFrom('lens_thickness').selectAll().orderBy('index_value').execute();
  return rows.map((row) => ({
    thickness_id: row.id,
    index: row.index_value,
    name: row.name,
    description: row.description,
    price: fromCents(row.price_cents),
  }));
}

export async function lensCoatings(ctx: AppContext): Promise<LensCoating[]> {
  const rows = await ctx.db.selectFrom('lens_coatings').selectAll().orderBy('id').execute();
  return rows.map((row) => ({
    coating_id: row.id,
    name: row.name,
    description: row.description,
    price: fromCents(row.price_cents),
  }));
}

export async function prismPrice(ctx: AppContext): Promise<PrismPrice> {
  const row = await ctx.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'prism_price_cents')
    .executeTakeFirst();
  return { price: fromCents(Number(row?.value ?? 0)) };
}
