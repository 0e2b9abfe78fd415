import type { PricedLens } from '../../../types/api';

/** The lens options of a line as short labels, e.g. ['Single Vision · Premium Digital', 'Thin 1.61', ...]. */
export function lensSummary(lens: PricedLens | null): string[] {
  if (!lens) return ['Frame only'];
  const parts = [lens.lens ? `${lens.lens_type.name} · ${lens.lens.name}` : lens.lens_type.name];
  if (lens.thickness) parts.push(lens.thickness.name);
  for (const coating of lens.coatings) parts.push(coating.name);
  if (lens.lens_color) parts.push(`${lens.lens_color.name} lenses`);
  if (lens.prism_price > 0) parts.push('Prism');
  return parts;
}
